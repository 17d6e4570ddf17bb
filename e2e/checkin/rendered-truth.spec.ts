import { type Browser, expect, type Page, type Response, test } from '@playwright/test';
import {
  DEMO_CHECKSUM,
  DEMO_ORG_ID,
  DEMO_PERSON_ID,
  MULTI_ORG_IDS,
  MULTI_ORG_PERSON_CHECKSUM,
  MULTI_ORG_PERSON_ID,
  OTHER_ORG_ID,
} from '../../backend/src/app/crm/in-memory/demo-data';
import { type RunningProcess, startService } from '../support/app-server';
import { appRunning, startTheApp } from '../support/app-start';

/**
 * The server's page is the whole truth before the app starts (docs/performance.md, "The app
 * starts when the owner acts"): each check runs twice with the same assertions, once on the page
 * as the service rendered it with no script running (JavaScript off), once after the app has
 * taken the page over, so the two cannot disagree. Stub mode; build first:
 * `npx nx run-many -t build -p frontend backend`.
 */
const ORGANIZER = { name: 'Sam Rivera', email: 'sam@example.org' };
const ORGANIZER_LINE = `contact ${ORGANIZER.name} at ${ORGANIZER.email}`;
const STAFF_KEY = 'demo';
const DEMO_LINK = `contactId=${DEMO_PERSON_ID}&orgId=${DEMO_ORG_ID}&cid=${DEMO_PERSON_ID}&cs=${DEMO_CHECKSUM}`;
const BAD_LINK = `contactId=${DEMO_PERSON_ID}&orgId=${DEMO_ORG_ID}&cid=${DEMO_PERSON_ID}&cs=not-the-checksum`;
const NOT_THEIR_COOP = `orgId=${OTHER_ORG_ID}&cid=${DEMO_PERSON_ID}&cs=${DEMO_CHECKSUM}`;
/** A co-op whose only check-in is a stage staff set: no owner has sent anything. */
const STAFF_ONLY_LINK = `orgId=${MULTI_ORG_IDS[0]}&cid=${MULTI_ORG_PERSON_ID}&cs=${MULTI_ORG_PERSON_CHECKSUM}`;

type Check = (page: Page, response: Response | null) => Promise<void>;

/**
 * `check` on the rendered page with no script (the app cannot start), then on the same address
 * with the app started the way an owner starts it (or, on the staff page, once loaded).
 */
async function beforeAndAfterTheApp(
  browser: Browser,
  url: string,
  check: Check,
  { timezoneId }: { timezoneId?: string } = {},
): Promise<void> {
  const withoutApp = await browser.newContext({
    javaScriptEnabled: false,
    ...(timezoneId ? { timezoneId } : {}),
  });
  try {
    const page = await withoutApp.newPage();
    await test.step('rendered, the app not started', async () => check(page, await page.goto(url)));
  } finally {
    await withoutApp.close();
  }
  const withApp = await browser.newContext(timezoneId ? { timezoneId } : {});
  try {
    const page = await withApp.newPage();
    const response = await page.goto(url);
    if (new URL(url).pathname === '/staff') await appRunning(page);
    else await startTheApp(page);
    await test.step('after the app started', async () => check(page, response));
  } finally {
    await withApp.close();
  }
}

function expectSecurityHeaders(response: Response | null): void {
  const headers = response?.headers() ?? {};
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['cache-control']).toContain('no-store');
}

test.describe('rendered pages with an organizer set', () => {
  let service: RunningProcess;

  test.beforeAll(async () => {
    service = await startService({
      ORGANIZER_NAME: ORGANIZER.name,
      ORGANIZER_EMAIL: ORGANIZER.email,
      // The site's zone differs from the browser's below, so a date that follows either shows.
      TZ: 'Pacific/Kiritimati',
      CRM_TIMEZONE: 'Pacific/Kiritimati',
    });
  });

  test.afterAll(async () => {
    await service?.stop();
  });

  for (const path of ['/', '/report']) {
    test(`a bad link on ${path} answers 401 and names the organizer`, async ({ browser }) => {
      await beforeAndAfterTheApp(browser, `${service.url}${path}?${BAD_LINK}`, async (page, response) => {
        expect(response?.status()).toBe(401);
        expectSecurityHeaders(response);
        const alert = page.getByRole('alert');
        await expect(alert).toContainText('This link is not valid or has expired');
        await expect(alert).toContainText(ORGANIZER_LINE);
        await expect(alert.getByRole('link', { name: ORGANIZER.email })).toHaveAttribute(
          'href',
          `mailto:${ORGANIZER.email}`,
        );
      });
    });
  }

  test('a page without its link answers 401 and names the organizer', async ({ browser }) => {
    await beforeAndAfterTheApp(browser, `${service.url}/?cid=${DEMO_PERSON_ID}`, async (page, response) => {
      expect(response?.status()).toBe(401);
      expectSecurityHeaders(response);
      await expect(page.locator('main, app-root').first()).toContainText(ORGANIZER_LINE);
    });
  });

  test('a link to a co-op that is not the person’s answers 403 and names the organizer', async ({
    browser,
  }) => {
    await beforeAndAfterTheApp(browser, `${service.url}/report?${NOT_THEIR_COOP}`, async (page, response) => {
      expect(response?.status()).toBe(403);
      expectSecurityHeaders(response);
      await expect(page.getByRole('alert')).toContainText(ORGANIZER_LINE);
    });
  });

  test('an unknown page answers 404 with the page that says so', async ({ browser }) => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const response = await page.goto(`${service.url}/no-such-page`);
      expect(response?.status()).toBe(404);
      expectSecurityHeaders(response);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    } finally {
      await context.close();
    }
  });

  test('a co-op whose only check-in is a staff stage change: 0 sent, the stage change named, the empty-answers explanation', async ({
    browser,
  }) => {
    await beforeAndAfterTheApp(
      browser,
      `${service.url}/report?${STAFF_ONLY_LINK}`,
      async (page, response) => {
        expect(response?.status()).toBe(200);
        const counts = page.locator('dl.counts');
        await expect(counts.locator('div').filter({ hasText: 'Check-ins sent' }).locator('dd')).toHaveText(
          '0',
        );
        await expect(
          counts.locator('div').filter({ hasText: 'Stage changes by staff' }).locator('dd'),
        ).toHaveText('1');
        await expect(page.getByRole('heading', { name: 'No check-ins yet' })).toBeVisible();
        await expect(page.getByText('After your first check-in, this page shows')).toBeVisible();
      },
    );
  });

  test('every date on the report reads the same before and after the app starts, in the site’s zone', async ({
    browser,
  }) => {
    const seen: string[][] = [];
    await beforeAndAfterTheApp(
      browser,
      `${service.url}/report?${DEMO_LINK}`,
      async (page) => {
        const dates = await page.locator('time').allTextContents();
        expect(dates.length).toBeGreaterThan(5);
        seen.push(dates.map((text) => text.trim()));
        if (seen.length === 2) expect(seen[1]).toEqual(seen[0]);
        // Dates follow the site's zone (docs/decisions.md, "Dates on owner pages"), not the browser's.
        await expect(page.locator('app-field-entries').first()).toContainText(/as of \w+ \d+, \d{4}/);
      },
      { timezoneId: 'America/Los_Angeles' },
    );
  });
});

test.describe('staff rows', () => {
  let service: RunningProcess;

  test.beforeAll(async () => {
    service = await startService();
  });

  test.afterAll(async () => {
    await service?.stop();
  });

  test('read as separate phrases in the accessibility tree', async ({ browser }) => {
    let checked = 0;
    await beforeAndAfterTheApp(
      browser,
      `${service.url}/staff?orgId=${DEMO_ORG_ID}&key=${STAFF_KEY}`,
      async (page) => {
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        // The rendered page holds the first section (organization facts, which carry no date);
        // the app builds the rest once the browser is idle (docs/performance.md, "The staff page
        // rendered from its link"). Every row either has is read the same way.
        const rows = page.locator('app-staff-field-row dl').filter({ hasText: 'recorded' });
        const snapshots = await Promise.all((await rows.all()).map((row) => row.ariaSnapshot()));
        for (const snapshot of snapshots) {
          // "Clearedrecorded November 29, 2026" would be one word to a screen reader.
          expect(snapshot).not.toMatch(/[^\s,]recorded /);
          // Playwright sets the hidden comma apart with a space ("9 people , recorded …").
          expect(snapshot).toMatch(/- definition:[\s\S]*\S ?, recorded \w+ \d+, \d{4}/);
        }
        checked = snapshots.length;
      },
    );
    // With the app running every section is built: dated rows were there to check.
    expect(checked).toBeGreaterThan(10);
  });
});

test.describe('page routes are rate-limited per address like the API reads', () => {
  let service: RunningProcess;

  test.beforeAll(async () => {
    service = await startService({
      RATE_LIMIT_READS_PER_MINUTE: '3',
      ORGANIZER_NAME: ORGANIZER.name,
      ORGANIZER_EMAIL: ORGANIZER.email,
    });
  });

  test.afterAll(async () => {
    await service?.stop();
  });

  test('the fourth page load in a minute answers the rendered 429 page with Retry-After', async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      // Pages that read nothing count too: the form without a link, the report, the staff page.
      for (const path of ['/?cid=1', '/report', '/staff']) {
        expect((await page.goto(`${service.url}${path}`))?.status()).not.toBe(429);
      }
      const response = await page.goto(`${service.url}/`);
      expect(response?.status()).toBe(429);
      expect(Number(response?.headers()['retry-after'])).toBeGreaterThan(0);
      expectSecurityHeaders(response);
      await expect(page.getByRole('alert')).toContainText('Too many requests');
      await expect(page.locator('main')).toContainText(ORGANIZER_LINE);
      // The API reads share the same counter.
      const api = await page.request.get(`${service.url}/api/organizer`);
      expect(api.status()).toBe(429);
    } finally {
      await context.close();
    }
  });
});
