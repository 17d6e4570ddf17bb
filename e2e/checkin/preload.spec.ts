import { expect, type Page, test } from '@playwright/test';
import {
  DEMO_CHECKSUM,
  DEMO_ORG_ID,
  DEMO_ORG_NAME,
  DEMO_PERSON_ID,
} from '../../backend/src/app/crm/in-memory/demo-data';
import { type RunningProcess, startService } from '../support/app-server';

/**
 * Data preloaded with the page, in Chromium: the service names the owner page's data request in a
 * `Link: rel=preload` header, and the app takes that answer instead of asking a second time. The
 * page's lazy code arrives compressed and preloaded too. Stub mode; build first:
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

for (const { name, path, api, ready } of [
  {
    name: 'form',
    path: `/?${OWNER_LINK}`,
    api: '/api/data',
    ready: (page: Page) => expect(page.getByRole('heading', { level: 1 })).toContainText(DEMO_ORG_NAME),
  },
  {
    name: 'report',
    path: `/report?${OWNER_LINK}`,
    api: '/api/report',
    ready: (page: Page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
]) {
  test(`the ${name} page reuses the preloaded data answer: one ${api} request, from the page's Link header`, async ({
    page,
  }) => {
    const watched = watch(page);
    const document = await page.goto(`${service.url}${path}`);
    const headers = await document!.allHeaders();
    expect(headers['content-encoding']).toBe('br');
    const link = headers['link'] ?? '';
    expect(link).toContain(`<${api}?${OWNER_LINK}>; rel=preload; as=fetch; crossorigin`);
    await ready(page);
    // Give a second request (the app asking again) time to show up.
    await page.waitForTimeout(1_000);
    expect(watched.requests.filter((request) => request.startsWith(`${api}?`))).toEqual([
      `${api}?${OWNER_LINK}`,
    ]);
    // Each preloaded chunk is fetched once: the import reuses the preload.
    const chunks = [...link.matchAll(/<\/(chunk-[^>]+\.js)>; rel=modulepreload/g)].map(
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
