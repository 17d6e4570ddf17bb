import { expect, type Page, test } from '@playwright/test';
import { DEMO_ORG_ID, DEMO_ORG_NAME } from '../../backend/src/app/crm/in-memory/demo-data';
import { OWNER_LINK, useBuiltService } from './suite-service';

/**
 * Pages and their data, in Chromium: the owner pages arrive rendered by the service with their
 * data inside, and the app takes that data instead of asking for it; so does the staff page opened
 * from its link, and reopened in its tab it starts its data request before its code has loaded.
 * The page's lazy code arrives compressed and preloaded too. Stub mode; build first:
 * `npx nx run-many -t build -p frontend backend`.
 */
const STAFF_KEY = 'demo';

const service = useBuiltService();

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

test('the staff page opened from its link arrives rendered with its data; the key stays out of every answer and request', async ({
  page,
}) => {
  const watched = watch(page);
  const document = await page.goto(`${service.url}/staff?orgId=${DEMO_ORG_ID}&key=${STAFF_KEY}`);
  const headers = await document!.allHeaders();
  expect(headers['cache-control']).toBe('private, no-store');
  expect(headers['etag']).toBeUndefined();
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['link'] ?? '').not.toContain('/api/');
  const html = await document!.text();
  expect(html).toContain(DEMO_ORG_NAME);
  expect(html).toContain('id="staff-stage-0"');
  // The key was read from the address of this one request; the page carries it nowhere.
  expect(html).not.toContain(STAFF_KEY);
  await page.waitForFunction(() => performance.getEntriesByName('checkin:app-stable').length > 0);
  await expect(page).toHaveURL(`${service.url}/staff?orgId=${DEMO_ORG_ID}`);
  expect(await page.evaluate(() => sessionStorage.getItem('checkin.staffKey'))).toBe(STAFF_KEY);
  // The running app took the data from the page: no request asks for it again.
  await page.waitForTimeout(500);
  expect(watched.requests.filter((request) => request.startsWith('/api/'))).toEqual([]);
  expect(watched.requests.filter((request) => request.includes('key='))).toEqual([
    `/staff?orgId=${DEMO_ORG_ID}&key=${STAFF_KEY}`,
  ]);
});

test('the staff page reopened in its tab starts its request before its code has loaded, its key only in a header', async ({
  page,
}) => {
  await page.goto(`${service.url}/staff?orgId=${DEMO_ORG_ID}&key=${STAFF_KEY}`);
  await expect(page).toHaveURL(`${service.url}/staff?orgId=${DEMO_ORG_ID}`);
  const watched = watch(page);
  const staffRequests: { type: string; key: string }[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/staff/report')) {
      staffRequests.push({ type: request.resourceType(), key: request.headers()['x-staff-key'] ?? '' });
    }
  });
  // The key now lives in the tab's session storage, which the service never sees: the page is
  // built in the browser, and its data requested with the key in a header.
  const document = await page.reload();
  const headers = await document!.allHeaders();
  // No data preload for this page: a hint cannot carry the key, and a URL must not.
  expect(headers['link'] ?? '').not.toContain('/api/');
  expect(await document!.text()).not.toContain('ng-server-context');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(DEMO_ORG_NAME);
  await page.waitForTimeout(1_000);
  // One request, by fetch (the head's early script, before Angular boots; HttpClient would use XHR).
  expect(staffRequests).toEqual([{ type: 'fetch', key: STAFF_KEY }]);
  expect(watched.requests.join(' ')).not.toContain('key=');
});
