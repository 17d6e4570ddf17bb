import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startStaticServer, type StaticServer } from '../support/static-server';

/** What the links page's specs share: the served site, the example content and page helpers. */
export const REPO_ROOT = resolve(__dirname, '..', '..');
export const SCREENSHOTS = join(REPO_ROOT, 'dist', 'e2e', 'screenshots');
export const EXAMPLE = JSON.parse(readFileSync(join(REPO_ROOT, 'data', 'links.json'), 'utf8'));
export const TEMPLATES = ['editorial', 'swiss', 'cosmos'] as const;
export const SCHEMES = ['light', 'dark'] as const;
export const ITEM_KINDS = ['link', 'card', 'video', 'portfolio', 'client', 'testimonial'];
export const VIDEO_HOST = /(^|\.)(youtube(-nocookie)?\.com|ytimg\.com|googlevideo\.com)$/;
export const STUB_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#777"/></svg>';

let server: StaticServer;

/** The repository served as the links page is published, for the spec file that calls it. */
export function useLinksSite() {
  test.beforeAll(async () => {
    server = await startStaticServer(REPO_ROOT);
  });
  test.afterAll(async () => {
    await server?.close();
  });
}

/** The served page's address. */
export function siteUrl(): string {
  return server.url;
}

/** A deep copy of the example, changed by `edit`. */
export function exampleWith(edit: (doc: typeof EXAMPLE) => void) {
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
export async function stubOtherHosts(page: Page) {
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
export function watchProblems(page: Page) {
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

export async function serveContent(page: Page, body: unknown, status = 200) {
  await page.route('**/data/links.json', (route) =>
    route.fulfill({
      status,
      contentType: 'application/json',
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

export async function openPage(page: Page, query = '') {
  await page.goto(new URL(query, server.url).href);
  await expect(page.locator('.hero__name')).toBeVisible();
}

/** Lazy images load when scrolled to; a full-page screenshot or audit needs them all now. */
export async function loadAllImages(page: Page) {
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
