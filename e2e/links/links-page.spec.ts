import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startStaticServer } from '../support/static-server';
import {
  EXAMPLE,
  exampleWith,
  ITEM_KINDS,
  loadAllImages,
  openPage,
  REPO_ROOT,
  SCHEMES,
  SCREENSHOTS,
  serveContent,
  siteUrl,
  STUB_ICON,
  stubOtherHosts,
  TEMPLATES,
  useLinksSite,
  VIDEO_HOST,
  watchProblems,
} from './links-page-support';

/** The links page in each template and colour scheme, and how it behaves with its content. */
useLinksSite();

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
    await page.goto(siteUrl());
    const alert = page.getByRole('alert');
    await expect(alert.getByRole('heading', { name: 'This page could not be displayed' })).toBeVisible();
    await expect(alert).toContainText('The links file data/links.json could not be loaded (HTTP 404).');
    await expect(page.locator('#hero')).toBeHidden();
  });

  test('a content file that is not JSON shows a clear message', async ({ page }) => {
    await serveContent(page, '{ "profile": { "name": "Juno" ');
    await page.goto(siteUrl());
    await expect(page.getByRole('alert')).toContainText('The links file data/links.json is not valid JSON');
  });

  test('a content file without a profile name or sections shows a clear message', async ({ page }) => {
    await serveContent(page, { profile: {}, sections: 'none' });
    await page.goto(siteUrl());
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
    const html = await (await request.get(siteUrl())).text();
    expect(html).toMatch(/<html lang="en"/);
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    for (const name of ['name="description"', 'property="og:title"', 'property="og:description"']) {
      expect(html).toContain(name);
    }
    expect(html).toContain('<noscript>');
  });
});
