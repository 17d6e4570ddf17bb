import { expect, type Page, test } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  DEMO_CHECKSUM,
  DEMO_ORG_ID,
  DEMO_PERSON_ID,
  INACTIVE_ORG_ID,
  MULTI_ORG_IDS,
  MULTI_ORG_PERSON_CHECKSUM,
  MULTI_ORG_PERSON_ID,
  OTHER_ORG_ID,
  REVERSED_ORG_ID,
} from '../../backend/src/app/crm/in-memory/demo-data';
import { type RunningProcess, startEmulator, startService } from '../support/app-server';

/**
 * The form, the owner's report and the staff page agree (issue 24): a cleared answer reads cleared
 * on both reports, the report shows what a first check-in sent, the quarterly matrix is the same
 * table on both pages, every owner page offers the co-op picker, and the staff page fits a phone
 * and leaves the browser's starting focus alone. Build first: `npx nx run-many -t build`.
 * Screenshots for the docs go to docs/screenshots when SCREENSHOTS_TO_DOCS is set.
 */
const ROOT = resolve(__dirname, '..', '..');
const SCREENSHOTS = process.env['SCREENSHOTS_TO_DOCS']
  ? join(ROOT, 'docs', 'screenshots')
  : join(ROOT, 'dist', 'e2e', 'screenshots');
const SHOT_PREFIX = process.env['SCREENSHOTS_TO_DOCS'] ?? 'after';
const STAFF_KEY = 'one-truth-staff-key-0123456789';
const DEMO_LINK = `contactId=${DEMO_PERSON_ID}&orgId=${DEMO_ORG_ID}&cid=${DEMO_PERSON_ID}&cs=${DEMO_CHECKSUM}`;
const multiLink = (orgId?: number) =>
  `cid=${MULTI_ORG_PERSON_ID}&cs=${MULTI_ORG_PERSON_CHECKSUM}` + (orgId ? `&orgId=${orgId}` : '');

const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

async function reviewAndSend(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Review and send' }).click();
  await page.getByRole('button', { name: 'Send check-in' }).click();
  await expect(page.getByRole('heading', { name: 'Check-in recorded' })).toBeVisible();
}

/** How far the page scrolls sideways: 0 when it fits its viewport. */
function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

async function openStaff(page: Page, service: RunningProcess, orgId: number, key: string): Promise<void> {
  await page.goto(`${service.url}/staff?orgId=${orgId}&key=${key}`);
  await expect(page.getByRole('navigation', { name: 'Report sections' })).toBeVisible();
  // The sections after the first and the submissions are built once the browser is idle.
  await expect(page.locator('.section-placeholder')).toHaveCount(0);
  await expect(page).not.toHaveURL(/key=/);
}

test.beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
});

test.describe('live mode against the CRM emulator', () => {
  let emulator: RunningProcess & { apiKey: string };
  let service: RunningProcess;

  test.beforeAll(async () => {
    emulator = await startEmulator();
    service = await startService({
      CRM_BASE_URL: emulator.url,
      CRM_API_KEY: emulator.apiKey,
      STAFF_REPORT_KEY: STAFF_KEY,
    });
  });

  test.afterAll(async () => {
    await service?.stop();
    await emulator?.stop();
  });

  test('an owner clears an answer and the staff page shows it cleared, as the owner’s report does', async ({
    page,
  }) => {
    await page.goto(`${service.url}/?${DEMO_LINK}`);
    const sqft = page.getByLabel('Planned sales floor');
    await expect(sqft).toHaveValue('4200');
    await sqft.fill('');
    await reviewAndSend(page);

    await openStaff(page, service, DEMO_ORG_ID, STAFF_KEY);
    const row = page
      .locator('dl')
      .filter({ has: page.getByRole('term').filter({ hasText: 'Planned sales floor' }) });
    await expect(row.locator('dd > app-staff-value')).toHaveText('Cleared');
    await row.getByRole('button', { name: /earlier entr/ }).click();
    await expect(row.getByRole('listitem').first()).toContainText('4,200');

    await page.goto(`${service.url}/report?${DEMO_LINK}`);
    const field = page
      .locator('app-field-entries')
      .filter({ has: page.getByRole('heading', { name: 'Planned sales floor' }) });
    await expect(field.locator('.latest .value')).toHaveText('Cleared');
  });
});

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`one truth on every page (${name})`, () => {
    test.use({ viewport });
    let service: RunningProcess;

    test.beforeEach(async () => {
      service = await startService({ STAFF_REPORT_KEY: STAFF_KEY });
    });

    test.afterEach(async () => {
      await service?.stop();
    });

    test('a first check-in that changed only "Your co-op" shows on the report, with no empty state', async ({
      page,
    }) => {
      const orgId = MULTI_ORG_IDS[0];
      await page.goto(`${service.url}/?${multiLink(orgId)}`);
      await page.getByLabel('Equity share price').fill('250');
      await reviewAndSend(page);

      await page.goto(`${service.url}/report?${multiLink(orgId)}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Northside Market Co-op');
      const coop = page.getByRole('region', { name: 'Your co-op' });
      await expect(coop).toContainText('Equity share price');
      await expect(coop).toContainText('$250.00');
      await expect(page.getByRole('heading', { name: 'No check-ins yet' })).toHaveCount(0);
      expect(await sidewaysScroll(page)).toBe(0);
      await page.screenshot({
        path: join(SCREENSHOTS, `${SHOT_PREFIX}-report-your-coop-${name}.png`),
        fullPage: true,
      });
    });

    test('/report without orgId lets a person with several co-ops choose one', async ({ page }) => {
      await page.goto(`${service.url}/report?${multiLink()}`);
      await expect(page.getByRole('heading', { name: 'Which co-op’s history?' })).toBeVisible();
      await expect(page.getByRole('alert').getByRole('listitem')).toHaveText([
        'Lakeshore Community Grocery',
        'Northside Market Co-op',
      ]);
      await page.getByRole('link', { name: 'Northside Market Co-op' }).click();
      await expect(page).toHaveURL(new RegExp(`/report\\?.*orgId=${MULTI_ORG_IDS[0]}`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Northside Market Co-op');
    });

    test('the quarterly matrix is the same table on both pages; the report gives each cell its dates and trend', async ({
      page,
    }) => {
      const tableOf = async () => {
        const table = page.getByRole('table', { name: 'First year by quarter' });
        await expect(table).toBeVisible();
        return {
          columns: await table.getByRole('columnheader').allTextContents(),
          rows: await table.getByRole('rowheader').allTextContents(),
        };
      };
      await openStaff(page, service, DEMO_ORG_ID, STAFF_KEY);
      const staff = await tableOf();
      await page.getByRole('table', { name: 'First year by quarter' }).scrollIntoViewIfNeeded();
      await page
        .locator('app-quarterly-matrix')
        .screenshot({ path: join(SCREENSHOTS, `${SHOT_PREFIX}-matrix-staff-${name}.png`) });

      await page.goto(`${service.url}/report?${DEMO_LINK}`);
      const owner = await tableOf();
      expect(owner).toEqual(staff);
      expect(owner.rows.map((row) => row.trim())).toEqual([
        'Sales',
        'Member-owners',
        'Transactions',
        'Gross margin',
      ]);

      const salesQ1 = page
        .locator('app-field-entries')
        .filter({ has: page.getByRole('heading', { name: 'Sales, Q1', exact: true }) });
      await expect(salesQ1.locator('.latest')).toContainText(/as of \w+ \d+, \d{4}/);
      await salesQ1.getByRole('button', { name: '1 earlier entry' }).click();
      await expect(salesQ1.getByRole('list', { name: 'Earlier entries: Sales, Q1' })).toContainText(
        '$612,000.00',
      );
      await expect(salesQ1.locator('figure.trend svg path.line')).toHaveCount(1);
      await page.locator('app-quarterly-matrix').scrollIntoViewIfNeeded();
      await page
        .locator('app-quarterly-matrix')
        .screenshot({ path: join(SCREENSHOTS, `${SHOT_PREFIX}-matrix-report-${name}.png`) });
    });

    test('the staff page fits the screen on every co-op, and its first load keeps the starting focus', async ({
      page,
    }) => {
      // Eight page loads, one per co-op and width.
      test.setTimeout(180_000);
      for (const orgId of [DEMO_ORG_ID, OTHER_ORG_ID, ...MULTI_ORG_IDS, INACTIVE_ORG_ID, REVERSED_ORG_ID]) {
        await openStaff(page, service, orgId, STAFF_KEY);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
        expect(await sidewaysScroll(page), `staff page of ${orgId}`).toBe(0);
      }
      for (const width of [320, 360]) {
        await page.setViewportSize({ width, height: 800 });
        await openStaff(page, service, DEMO_ORG_ID, STAFF_KEY);
        expect(await sidewaysScroll(page), `staff page at ${width}px`).toBe(0);
      }
      await page.setViewportSize(viewport);
      await openStaff(page, service, DEMO_ORG_ID, STAFF_KEY);
      await page.screenshot({ path: join(SCREENSHOTS, `${SHOT_PREFIX}-staff-${name}.png`), fullPage: true });
    });
  });
}
