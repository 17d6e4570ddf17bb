import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { startStaticServer, type StaticServer } from '../support/static-server';

const REPO_ROOT = resolve(__dirname, '..', '..');
const SCREENSHOTS = join(REPO_ROOT, 'dist', 'e2e', 'screenshots');
const EXAMPLE = JSON.parse(readFileSync(join(REPO_ROOT, 'data', 'links.json'), 'utf8'));
const TEMPLATES = ['editorial', 'swiss', 'cosmos'] as const;
const SCHEMES = ['light', 'dark'] as const;
const ITEM_KINDS = ['link', 'card', 'video', 'portfolio', 'client', 'testimonial'];
const VIDEO_HOST = /(^|\.)(youtube(-nocookie)?\.com|ytimg\.com|googlevideo\.com)$/;
const STUB_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#777"/></svg>';

let server: StaticServer;

test.beforeAll(async () => {
  server = await startStaticServer(REPO_ROOT);
});

test.afterAll(async () => {
  await server?.close();
});

/** A deep copy of the example, changed by `edit`. */
function exampleWith(edit: (doc: typeof EXAMPLE) => void) {
  const doc = structuredClone(EXAMPLE);
  edit(doc);
  return doc;
}

/**
 * This machine has no internet: other hosts (images, the video player) are answered locally, and
 * every request to them is recorded so tests can check what the page asked for. Site icons at
 * /favicon.ico are the exception: Playwright aborts those whenever a route is set, and the page
 * then shows its neutral icon.
 */
async function stubOtherHosts(page: Page) {
  const requested: URL[] = [];
  const origin = new URL(server.url).origin;
  await page.route(
    (url) => url.origin !== origin,
    (route) => {
      const url = new URL(route.request().url());
      requested.push(url);
      if (VIDEO_HOST.test(url.hostname)) {
        return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Player</title>' });
      }
      return route.fulfill({ contentType: 'image/svg+xml', body: STUB_ICON });
    },
  );
  return requested;
}

/** Console errors, uncaught exceptions and failed or erroring requests seen while the page runs. */
function watchProblems(page: Page) {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`exception: ${error.message}`));
  page.on('requestfailed', (request) =>
    problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return problems;
}

async function serveContent(page: Page, body: unknown, status = 200) {
  await page.route('**/data/links.json', (route) =>
    route.fulfill({
      status,
      contentType: 'application/json',
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

async function openPage(page: Page, query = '') {
  await page.goto(new URL(query, server.url).href);
  await expect(page.locator('.hero__name')).toBeVisible();
}

/** Lazy images load when scrolled to; a full-page screenshot or audit needs them all now. */
async function loadAllImages(page: Page) {
  await page.evaluate(async () => {
    const images = Array.from(document.images);
    for (const image of images) image.loading = 'eager';
    await Promise.all(
      images
        .filter((image) => !image.complete)
        .map(
          (image) =>
            new Promise((done) => {
              image.addEventListener('load', done, { once: true });
              image.addEventListener('error', done, { once: true });
            }),
        ),
    );
  });
}

for (const scheme of SCHEMES) {
  test.describe(`${scheme} color scheme`, () => {
    test.use({ colorScheme: scheme, viewport: { width: 1280, height: 900 } });

    for (const template of TEMPLATES) {
      test(`the ${template} template renders the example, accessibly and without errors`, async ({
        page,
      }) => {
        const problems = watchProblems(page);
        await stubOtherHosts(page);
        await openPage(page, `?template=${template}`);

        await expect(page.locator('html')).toHaveAttribute('data-template', template);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(EXAMPLE.profile.name);
        for (const kind of ITEM_KINDS) {
          await expect(page.locator(`[data-kind="${kind}"]`).first(), `a ${kind} item`).toBeVisible();
        }

        const featured = await page.locator('.tile--card.tile--featured').evaluate((tile) => {
          const grid = getComputedStyle(tile.parentElement!);
          const gap = parseFloat(grid.columnGap);
          const column = (tile.parentElement!.clientWidth - 11 * gap) / 12;
          return {
            span: getComputedStyle(tile).gridColumnStart,
            width: tile.getBoundingClientRect().width,
            eightColumns: 8 * column + 7 * gap,
          };
        });
        expect(featured.span).toBe('span 8');
        expect(Math.abs(featured.width - featured.eightColumns)).toBeLessThan(1);

        const displays = await page
          .locator('.card__title, .card__desc')
          .evaluateAll((nodes) => [...new Set(nodes.map((node) => getComputedStyle(node).display))]);
        expect(displays).toEqual(['block']);

        await loadAllImages(page);
        const { violations } = await new AxeBuilder({ page }).analyze();
        expect(
          violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        ).toEqual([]);

        await mkdir(SCREENSHOTS, { recursive: true });
        await page.screenshot({ path: join(SCREENSHOTS, `links-${template}-${scheme}.png`), fullPage: true });
        expect(problems).toEqual([]);
      });
    }
  });
}

test.describe('behaviour', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('nothing is requested from the video host before play; then the privacy-enhanced player loads', async ({
    page,
  }) => {
    const requested = await stubOtherHosts(page);
    await openPage(page);
    await loadAllImages(page);
    const videoRequests = () => requested.filter((url) => VIDEO_HOST.test(url.hostname));

    expect(videoRequests()).toEqual([]);
    await expect(page.locator('iframe')).toHaveCount(0);

    const video = page.locator('[data-kind="video"]').first();
    await video.getByRole('button', { name: `Play video: ${EXAMPLE.sections[2].items[0].title}` }).click();

    const player = video.locator('iframe');
    await expect(player).toHaveAttribute(
      'src',
      /^https:\/\/www\.youtube-nocookie\.com\/embed\/aqz-KE-bpKQ\?/,
    );
    await expect(player).toHaveAttribute('title', EXAMPLE.sections[2].items[0].title);
    await expect.poll(() => videoRequests().map((url) => url.hostname)).toEqual(['www.youtube-nocookie.com']);
  });

  test('a missing content file shows a clear message', async ({ page }) => {
    await serveContent(page, 'Not found', 404);
    await page.goto(server.url);
    const alert = page.getByRole('alert');
    await expect(alert.getByRole('heading', { name: 'This page could not be displayed' })).toBeVisible();
    await expect(alert).toContainText('The links file data/links.json could not be loaded (HTTP 404).');
    await expect(page.locator('#hero')).toBeHidden();
  });

  test('a content file that is not JSON shows a clear message', async ({ page }) => {
    await serveContent(page, '{ "profile": { "name": "Juno" ');
    await page.goto(server.url);
    await expect(page.getByRole('alert')).toContainText('The links file data/links.json is not valid JSON');
  });

  test('a content file without a profile name or sections shows a clear message', async ({ page }) => {
    await serveContent(page, { profile: {}, sections: 'none' });
    await page.goto(server.url);
    await expect(page.getByRole('alert')).toContainText('does not have the expected shape');
  });

  test('footer year "auto" shows the current year, with the copy line and the edit link', async ({
    page,
  }) => {
    await stubOtherHosts(page);
    await openPage(page);
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText(`© ${new Date().getFullYear()} ${EXAMPLE.footer.copy}`);
    await expect(footer.getByRole('link', { name: 'Suggest an edit to this page' })).toHaveAttribute(
      'href',
      EXAMPLE.footer.editUrl,
    );
  });

  test('any other footer year is shown as written', async ({ page }) => {
    await stubOtherHosts(page);
    await serveContent(
      page,
      exampleWith((doc) => {
        doc.footer.year = '2019–2025';
        delete doc.footer.editUrl;
      }),
    );
    await openPage(page);
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText('© 2019–2025');
    await expect(footer.getByRole('link')).toHaveCount(0);
  });

  test('javascript: addresses are shown as text, never as links', async ({ page }) => {
    const problems = watchProblems(page);
    await stubOtherHosts(page);
    await serveContent(
      page,
      exampleWith((doc) => {
        const [projects, links] = doc.sections;
        links.items[0].url = 'javascript:alert(1)';
        projects.items[0].url = ' JavaScript:alert(1)';
        projects.items[0].repo = 'javascript:alert(1)';
        doc.social[0].url = 'java\tscript:alert(1)';
        doc.footer.editUrl = 'javascript:alert(1)';
        links.items[1].image = 'javascript:alert(1)';
      }),
    );
    await openPage(page);

    await expect(page.getByRole('heading', { name: EXAMPLE.sections[1].items[0].title })).toBeVisible();
    await expect(page.getByText(EXAMPLE.social[0].label, { exact: true })).toBeVisible();
    const protocols = await page
      .locator('a[href], img[src]')
      .evaluateAll((nodes) =>
        nodes.map(
          (node) => new URL((node as HTMLAnchorElement).href || (node as HTMLImageElement).src).protocol,
        ),
      );
    expect(protocols.length).toBeGreaterThan(10);
    expect(protocols.filter((protocol) => !['http:', 'https:', 'mailto:'].includes(protocol))).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('a link shows its own image or icon, else its site icon, else a neutral icon', async ({ page }) => {
    // Playwright aborts routed requests for /favicon.ico, so this test sets no route: the site
    // icons come from real local servers, one answering /favicon.ico and one already closed.
    const iconHost = await startStaticServer(REPO_ROOT, {
      '/favicon.ico': { contentType: 'image/svg+xml', body: STUB_ICON },
    });
    const closedHost = await startStaticServer(REPO_ROOT);
    await closedHost.close();
    const items = [
      { type: 'link', title: 'Own image', url: iconHost.url, image: 'assets/img/logo-riverbend.svg' },
      { type: 'link', title: 'Own icon', url: iconHost.url, icon: 'assets/img/logo-handbook.svg' },
      { type: 'link', title: 'Site icon', url: `${iconHost.url}about/` },
      { type: 'link', title: 'Unreachable site', url: `${closedHost.url}about/` },
      { type: 'link', title: 'Email', url: 'mailto:robin@example.org' },
      { type: 'link', title: 'This site', url: 'data/links.json' },
    ];
    const site = await startStaticServer(REPO_ROOT, {
      '/data/links.json': {
        contentType: 'application/json',
        body: JSON.stringify({
          profile: { name: 'Robin Example' },
          sections: [{ id: 'links', label: 'Links', items }],
        }),
      },
    });
    try {
      await page.goto(site.url);
      const icon = (title: string) =>
        page.locator('[data-kind="link"]', { hasText: title }).locator('.tile__icon');

      await expect(icon('Own image').locator('img')).toHaveAttribute(
        'src',
        `${site.url}assets/img/logo-riverbend.svg`,
      );
      await expect(icon('Own icon').locator('img')).toHaveAttribute(
        'src',
        `${site.url}assets/img/logo-handbook.svg`,
      );
      const siteIcon = icon('Site icon').locator('img');
      await expect(siteIcon).toHaveAttribute('src', `${iconHost.url}favicon.ico`);
      await expect(siteIcon).toHaveAttribute('loading', 'lazy');
      await expect
        .poll(() => siteIcon.evaluate((image: HTMLImageElement) => image.naturalWidth))
        .toBeGreaterThan(0);
      await expect(icon('Unreachable site').locator('svg[data-icon="website"]')).toBeVisible();
      await expect(icon('Unreachable site').locator('img')).toHaveCount(0);
      await expect(icon('Email').locator('svg[data-icon="email"]')).toBeVisible();
      await expect(icon('This site').locator('img')).toHaveAttribute(
        'src',
        `${site.url}assets/img/favicon.svg`,
      );
    } finally {
      await site.close();
      await iconHost.close();
    }
  });

  test('social pills carry the network icon, and a neutral icon for unknown keys', async ({ page }) => {
    await stubOtherHosts(page);
    await openPage(page);
    const social = page.getByRole('navigation', { name: 'Elsewhere on the web' });
    const icons = await social
      .locator('.pill')
      .evaluateAll((pills) => pills.map((pill) => [pill.textContent, pill.getAttribute('data-icon')]));
    expect(icons).toEqual([
      ['Mastodon', 'mastodon'],
      ['Codeberg', 'codeberg'],
      ['GitHub', 'github'],
      ['Bluesky', 'bluesky'],
      ['PeerTube', 'link'],
      ['Email', 'email'],
      ['Notes feed', 'rss'],
    ]);
    await expect(social.getByRole('link', { name: 'Mastodon' })).toHaveAttribute('rel', 'me');
  });

  test('repository links get the icon of their host, or a generic git icon when self-hosted', async ({
    page,
  }) => {
    await stubOtherHosts(page);
    await openPage(page);
    const repos = await page
      .locator('.card__repo')
      .evaluateAll((links) =>
        links.map((link) => [link.getAttribute('aria-label'), link.getAttribute('data-host')]),
      );
    expect(repos).toEqual([
      ['Source code of Member Ledger on GitHub', 'github'],
      ['Source code of Seed Library on git.riverbend.example', 'git'],
      ['Source code of Bylaws Builder on GitLab', 'gitlab'],
      ['Source code of Shift Swap on Codeberg', 'codeberg'],
    ]);
    await expect(page.getByRole('link', { name: 'Member Ledger', exact: true })).toHaveAttribute(
      'href',
      'https://memberledger.example/',
    );
    await expect(
      page.locator('.tile--card', { hasText: 'Bylaws Builder' }).locator('.card__title a'),
    ).toHaveCount(0);
  });

  test('the template comes from the content file, and ?template= overrides it', async ({ page }) => {
    await stubOtherHosts(page);
    await serveContent(
      page,
      exampleWith((doc) => (doc.theme.template = 'cosmos')),
    );
    await openPage(page);
    await expect(page.locator('html')).toHaveAttribute('data-template', 'cosmos');
    await openPage(page, '?template=swiss');
    await expect(page.locator('html')).toHaveAttribute('data-template', 'swiss');
    await openPage(page, '?template=unknown');
    await expect(page.locator('html')).toHaveAttribute('data-template', 'cosmos');
  });

  test('kickers sit above their labels; a headless section has no header and follows the previous one', async ({
    page,
  }) => {
    await stubOtherHosts(page);
    await openPage(page);
    const projects = page.locator('#projects');
    const kicker = await projects.locator('.section__kicker').boundingBox();
    const label = await projects.getByRole('heading', { level: 2, name: 'Projects' }).boundingBox();
    await expect(projects.locator('.section__kicker')).toHaveText('Built with members');
    expect(kicker!.y + kicker!.height).toBeLessThanOrEqual(label!.y + 1);

    const headless = page.locator('#talk-slides');
    await expect(headless).toHaveAttribute('aria-label', 'Talk slides');
    await expect(headless.locator('h2, .section__header')).toHaveCount(0);
    const previous = await page.locator('#talks').evaluate((talks) => talks.nextElementSibling?.id);
    expect(previous).toBe('talk-slides');
  });

  test('portfolio images keep their ratio, 5:2 unless given', async ({ page }) => {
    await stubOtherHosts(page);
    await openPage(page);
    await loadAllImages(page);
    const ratios = await page.locator('.portfolio__image').evaluateAll((images) =>
      images.map((image) => {
        const box = image.getBoundingClientRect();
        return {
          css: getComputedStyle(image).aspectRatio,
          measured: Math.round((box.width / box.height) * 100) / 100,
        };
      }),
    );
    expect(ratios).toEqual([
      { css: '5 / 2', measured: 2.5 },
      { css: '4 / 3', measured: 1.33 },
    ]);
  });

  test('dates in YYYY-MM-DD form are machine-readable; free text is shown as written', async ({ page }) => {
    await stubOtherHosts(page);
    await openPage(page);
    await expect(page.locator('time[datetime="2025-01-15"]')).toHaveText('Jan 15, 2025');
    await expect(page.locator('time[datetime="2024-03"]')).toHaveText('Mar 2024');
    await expect(page.locator('span.card__date', { hasText: 'Spring 2023' })).toBeVisible();
  });

  test('with reduced motion asked for, nothing animates', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await stubOtherHosts(page);
    await openPage(page, '?template=cosmos');
    const timings = await page.evaluate(() => ({
      stars: getComputedStyle(document.body, '::before').animationDuration,
      tile: getComputedStyle(document.querySelector('.tile')!).transitionDuration,
      scroll: getComputedStyle(document.documentElement).scrollBehavior,
    }));
    expect(parseFloat(timings.stars)).toBeLessThan(0.001);
    expect(parseFloat(timings.tile)).toBeLessThan(0.001);
    expect(timings.scroll).toBe('auto');
  });

  test('a pale or a dark accent is adjusted to keep text readable in every template', async ({ browser }) => {
    for (const [scheme, accent] of [
      ['light', '#fde047'],
      ['dark', '#1e1b4b'],
    ] as const) {
      const context = await browser.newContext({
        colorScheme: scheme,
        viewport: { width: 1280, height: 900 },
      });
      const page = await context.newPage();
      await stubOtherHosts(page);
      await serveContent(
        page,
        exampleWith((doc) => (doc.theme.accent = accent)),
      );
      for (const template of TEMPLATES) {
        await openPage(page, `?template=${template}`);
        const { violations } = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
        expect(violations.flatMap((v) => v.nodes.map((n) => `${template} ${scheme}: ${n.target}`))).toEqual(
          [],
        );
      }
      await context.close();
    }
  });

  test('the static head describes the page for crawlers and link previews', async ({ request }) => {
    const html = await (await request.get(server.url)).text();
    expect(html).toMatch(/<html lang="en"/);
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    for (const name of ['name="description"', 'property="og:title"', 'property="og:description"']) {
      expect(html).toContain(name);
    }
    expect(html).toContain('<noscript>');
  });
});

test.describe('phone width', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const template of TEMPLATES) {
    test(`the ${template} template has no horizontal scroll at 390px`, async ({ page }) => {
      await stubOtherHosts(page);
      await openPage(page, `?template=${template}`);
      await loadAllImages(page);
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    });
  }
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a message explains the page and points to the raw data', async ({ page }) => {
    await page.goto(server.url);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Juno Adeyemi-Hart · Links');
    await expect(page.getByRole('link', { name: 'data/links.json' })).toHaveAttribute(
      'href',
      'data/links.json',
    );
  });
});

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

for (const viewport of VIEWPORTS) {
  test.describe(`first screen and layout at ${viewport.width}px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const template of TEMPLATES) {
      test(`${template}: the first link is on the first screen, the name keeps its hyphen, the footer is left-aligned`, async ({
        page,
      }) => {
        await stubOtherHosts(page);
        await openPage(page, `?template=${template}`);

        const firstLink = page.locator('#content a[href]').first();
        await expect(firstLink).toHaveText(EXAMPLE.sections[0].items[0].title);
        const box = await firstLink.boundingBox();
        expect(box && box.y + box.height).toBeLessThanOrEqual(viewport.height);

        // "Adeyemi-Hart" stays on one line: no break after its hyphen.
        const hyphenated = page.locator('.hero__name .nowrap');
        await expect(hyphenated).toHaveText('Adeyemi-Hart');
        const lines = await hyphenated.evaluate((node) => {
          const range = document.createRange();
          range.selectNodeContents(node);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        });
        expect(lines).toBe(1);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(EXAMPLE.profile.name);

        const footer = await page.locator('.site-footer').evaluate((element) => {
          const copy = element.querySelector('.site-footer__copy')!;
          return {
            align: getComputedStyle(copy).textAlign,
            offset: copy.getBoundingClientRect().left - element.getBoundingClientRect().left,
          };
        });
        expect(footer).toEqual({ align: 'left', offset: 0 });
      });

      test(`${template}: a video placeholder shows its title and a play button, loading nothing from the host`, async ({
        page,
      }) => {
        const requested = await stubOtherHosts(page);
        await openPage(page, `?template=${template}`);
        const video = page.locator('[data-kind="video"]').first();
        const title = EXAMPLE.sections[2].items[0].title as string;
        const play = video.getByRole('button', { name: `Play video: ${title}` });

        await play.scrollIntoViewIfNeeded();
        await expect(play.locator('.video__play-title')).toHaveText(title);
        await expect(play.locator('.video__play-title')).toBeVisible();
        await expect(play.locator('.video__play-icon')).toBeVisible();
        expect(requested.filter((url) => VIDEO_HOST.test(url.hostname))).toEqual([]);
      });
    }

    test('editorial: the masthead’s double rule is the only rule above the first section', async ({
      page,
    }) => {
      await stubOtherHosts(page);
      await openPage(page, '?template=editorial');
      const gap = await page.evaluate(() => {
        const hero = document.getElementById('hero')!.getBoundingClientRect();
        const header = document.querySelector('.section .section__header')!;
        return {
          rule: getComputedStyle(header).borderTopStyle,
          space: header.getBoundingClientRect().top - hero.bottom,
        };
      });
      expect(gap.rule).toBe('none');
      expect(gap.space).toBeLessThanOrEqual(40);
    });

    test('portfolio and testimonial items with a url always link to it, with a name', async ({ page }) => {
      const doc = exampleWith((content) => {
        content.sections[4].items = [
          { type: 'portfolio', image: 'assets/img/work-mural.svg', url: 'https://example.org/mural' },
          { type: 'portfolio', description: 'Hand-lettered signs', url: 'https://example.org/signs' },
          { type: 'portfolio', url: 'https://example.org/bare' },
        ];
        content.sections[6].items = [
          { type: 'testimonial', quote: 'They listened first.', url: 'https://example.org/quote' },
          { type: 'testimonial', url: 'https://example.org/source' },
          { type: 'testimonial', quote: 'Named.', name: 'Dana', url: 'https://example.org/dana' },
        ];
      });
      await serveContent(page, doc);
      await stubOtherHosts(page);
      await openPage(page);

      const portfolio = page.locator('#portfolio');
      await expect(portfolio.getByRole('link', { name: 'Portfolio piece' })).toHaveAttribute(
        'href',
        'https://example.org/mural',
      );
      await expect(portfolio.getByRole('link')).toHaveCount(3);
      await expect(portfolio.getByRole('link', { name: 'View this piece' }).first()).toHaveAttribute(
        'href',
        'https://example.org/signs',
      );
      await expect(portfolio.getByRole('link', { name: 'View this piece' }).last()).toHaveAttribute(
        'href',
        'https://example.org/bare',
      );

      const testimonials = page.locator('#testimonials');
      await expect(testimonials.getByRole('link', { name: 'They listened first.' })).toHaveAttribute(
        'href',
        'https://example.org/quote',
      );
      await expect(testimonials.getByRole('link', { name: 'Source' })).toHaveAttribute(
        'href',
        'https://example.org/source',
      );
      await expect(testimonials.getByRole('link', { name: 'Dana' })).toHaveAttribute(
        'href',
        'https://example.org/dana',
      );

      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map((v) => v.id)).toEqual([]);
    });
  });
}
