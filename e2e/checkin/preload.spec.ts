import { expect, type Page, test } from '@playwright/test';
import {
  DEMO_CHECKSUM,
  DEMO_ORG_ID,
  DEMO_ORG_NAME,
  DEMO_PERSON_ID,
} from '../../backend/src/app/crm/in-memory/demo-data';
import { type RunningProcess, startService } from '../support/app-server';

/**
 * Pages and their data, in Chromium: the owner pages arrive rendered by the service with their
 * data inside, and the app takes that data instead of asking for it; the staff page starts its
 * data request before its code has loaded. The page's lazy code arrives compressed and preloaded
 * too. Stub mode; build first:
 * `npx nx run-many -t build -p frontend backend`.
 */
const OWNER_LINK = `contactId=${DEMO_PERSON_ID}&orgId=${DEMO_ORG_ID}&cid=${DEMO_PERSON_ID}&cs=${DEMO_CHECKSUM}`;
const STAFF_KEY = 'demo';

let service: RunningProcess;

test.beforeAll(async () => {
  service = await startService();
});

test.afterAll(async () => {
  await service?.stop();
});

interface Watched {
  /** Every request's path and query, in order. */
  requests: string[];
  /** Console messages about preloads the page did not use (Chromium warns about those). */
  preloadWarnings: string[];
  /** Resource types of the API requests: 'fetch' for the early request, 'xhr' for HttpClient's. */
  dataTypes: string[];
}

function watch(page: Page): Watched {
  const watched: Watched = { requests: [], preloadWarnings: [], dataTypes: [] };
  page.on('request', (request) => {
    const url = new URL(request.url());
    watched.requests.push(`${url.pathname}${url.search}`);
    if (url.pathname.startsWith('/api/')) watched.dataTypes.push(request.resourceType());
  });
  page.on('console', (message) => {
    if (/preload/i.test(message.text())) watched.preloadWarnings.push(message.text());
  });
  return watched;
}

for (const { name, path, api, title, ready } of [
  {
    name: 'form',
    path: `/?${OWNER_LINK}`,
    api: '/api/data',
    title: `${DEMO_ORG_NAME} – Co-op check-in`,
    ready: (page: Page) => expect(page.getByRole('heading', { level: 1 })).toContainText(DEMO_ORG_NAME),
  },
  {
    name: 'report',
    path: `/report?${OWNER_LINK}`,
    api: '/api/report',
    title: `${DEMO_ORG_NAME} · Check-in history`,
    ready: (page: Page) => expect(page.getByRole('heading', { level: 1 })).toHaveText(DEMO_ORG_NAME),
  },
]) {
  test(`the ${name} page arrives rendered with its data: no ${api} request, its code preloaded`, async ({
    page,
  }) => {
    const watched = watch(page);
    const document = await page.goto(`${service.url}${path}`);
    const headers = await document!.allHeaders();
    expect(headers['content-encoding']).toBe('br');
    // Personal, and made for this response alone (its CSP nonce).
    expect(headers['cache-control']).toBe('private, no-store');
    expect(headers['etag']).toBeUndefined();
    const link = headers['link'] ?? '';
    // The data is inside the page: no data preload, no data request.
    expect(link).not.toContain('/api/');
    const html = await document!.text();
    expect(html).toContain(DEMO_ORG_NAME);
    // Named as the app names it: the page's code runs only once the owner acts.
    expect(html).toContain(`<title>${title}</title>`);
    await ready(page);
    // Give a request (the app asking for its data after all) time to show up.
    await page.waitForTimeout(1_000);
    expect(watched.requests.filter((request) => request.startsWith('/api/'))).toEqual([]);
    // Each preloaded chunk is fetched once: the import reuses the preload. The page's own chunks
    // are preloaded from its head (its headers go out before it is rendered).
    const chunks = [...html.matchAll(/<link rel="modulepreload" href="\/?(chunk-[\w-]+\.js)"/g)].map(
      (match) => `/${match[1]}`,
    );
    expect(chunks.length).toBeGreaterThan(0);
    for (const chunk of chunks)
      expect(watched.requests.filter((request) => request === chunk)).toHaveLength(1);
    expect(watched.preloadWarnings).toEqual([]);
  });
}

test('the staff page starts its request before its code has loaded, its key only in a header', async ({
  page,
}) => {
  const watched = watch(page);
  const staffRequests: { type: string; key: string }[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/staff/report')) {
      staffRequests.push({ type: request.resourceType(), key: request.headers()['x-staff-key'] ?? '' });
    }
  });
  const document = await page.goto(`${service.url}/staff?orgId=${DEMO_ORG_ID}&key=${STAFF_KEY}`);
  const headers = await document!.allHeaders();
  // No data preload for the staff page: a hint cannot carry the key, and a URL must not.
  expect(headers['link'] ?? '').not.toContain('/api/');
  expect(headers['link'] ?? '').not.toContain('key=');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForTimeout(1_000);
  // One request, by fetch (main.ts, before Angular boots; the page's HttpClient would use XHR).
  expect(staffRequests).toEqual([{ type: 'fetch', key: STAFF_KEY }]);
  expect(watched.requests.filter((request) => request.startsWith('/api/')).join(' ')).not.toContain('key=');
});
