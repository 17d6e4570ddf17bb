import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import {
  EXAMPLE,
  exampleWith,
  loadAllImages,
  openPage,
  serveContent,
  siteUrl,
  stubOtherHosts,
  TEMPLATES,
  useLinksSite,
  VIDEO_HOST,
} from './links-page-support';

/** The links page's layout: the first screen at desktop and phone width, and without JavaScript. */
useLinksSite();

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
    await page.goto(siteUrl());
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
