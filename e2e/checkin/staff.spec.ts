import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FieldValue, FileValue, StaffReportPayload } from '../../libs/contract/src';
import { DEMO_ORG_ID, DEMO_ORG_NAME, OTHER_ORG_ID } from '../../backend/src/app/crm/in-memory/demo-data';
import { SCREENSHOTS, useBuiltService } from './suite-service';

/**
 * The staff page in Chromium against the built service in stub mode (the in-memory CRM with the
 * demo data; staff key `demo`). Build first: `npx nx run-many -t build -p frontend backend`.
 */
const STUB_STAFF_KEY = 'demo';
const STORAGE_KEY = 'checkin.staffKey';

const service = useBuiltService();

function staffUrl(query: string): string {
  return `${service.url}/staff?${query}`;
}

/** Opens the staff link (the page arrives rendered by the service) and waits for the whole report. */
async function openReport(page: Page, orgId = DEMO_ORG_ID): Promise<void> {
  await page.goto(staffUrl(`orgId=${orgId}&key=${STUB_STAFF_KEY}`));
  await expectWholeReport(page);
}

/**
 * Opens the page as when it is reopened in its tab: the key in session storage, none in the
 * address, so the page is built in the browser and requests its data (which a test may route).
 */
async function reopenReport(page: Page, orgId = DEMO_ORG_ID): Promise<void> {
  await page.addInitScript(([item, key]) => sessionStorage.setItem(item, key), [
    STORAGE_KEY,
    STUB_STAFF_KEY,
  ] as const);
  await page.goto(staffUrl(`orgId=${orgId}`));
  await expectWholeReport(page);
}

async function expectWholeReport(page: Page): Promise<void> {
  await expect(page.getByRole('navigation', { name: 'Report sections' })).toBeVisible();
  // The sections after the first are built once the app runs and the browser is idle.
  await expect(page.locator('.section-placeholder')).toHaveCount(0);
}

async function staffReport(orgId = DEMO_ORG_ID): Promise<StaffReportPayload> {
  const response = await fetch(`${service.url}/api/staff/report?orgId=${orgId}`, {
    headers: { 'X-Staff-Key': STUB_STAFF_KEY },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as StaffReportPayload;
}

function fileValues(payload: StaffReportPayload): FileValue[] {
  const isFile = (value: FieldValue): value is FileValue =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  return payload.sections
    .flatMap((section) => section.fields)
    .flatMap((report) => [report.latest, ...report.history.map((entry) => entry.value)])
    .filter(isFile);
}

/**
 * Every toggle (earlier entries, empty fields) opened, so checks see the whole page. Clicked
 * inside the page, all at once: one Playwright click per toggle (about sixty) was slow enough
 * to time out on a loaded machine. Repeated because an opened part may hold more toggles.
 */
async function expandAll(page: Page): Promise<void> {
  const toggles = page.locator('main button[aria-expanded="false"]');
  for (let round = 0; round < 5 && (await toggles.count()) > 0; round += 1) {
    await toggles.evaluateAll((buttons) =>
      buttons.forEach((button) => (button as HTMLButtonElement).click()),
    );
  }
  await expect(toggles).toHaveCount(0);
}

async function fileLinkTargets(page: Page): Promise<string[]> {
  await expandAll(page);
  const links = page.locator('main a[target="_blank"]');
  return (
    await links.evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''))
  ).sort();
}

function row(page: Page, label: string): Locator {
  return page.locator('dl').filter({ has: page.getByRole('term').filter({ hasText: label }) });
}

async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

test.describe('staff key', () => {
  test('moves the key from the address into session storage, keeping orgId', async ({ page }) => {
    await openReport(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(DEMO_ORG_NAME);
    await expect(page).toHaveURL(staffUrl(`orgId=${DEMO_ORG_ID}`));
    expect(await page.evaluate((key) => sessionStorage.getItem(key), STORAGE_KEY)).toBe(STUB_STAFF_KEY);
  });

  test('opened from its link, the report is there before any script runs, the key nowhere in it', async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const response = await page.goto(staffUrl(`orgId=${DEMO_ORG_ID}&key=${STUB_STAFF_KEY}`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(DEMO_ORG_NAME);
    await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Report sections' })).toBeVisible();
    expect(await response!.text()).not.toContain(STUB_STAFF_KEY);
    await context.close();
  });

  test('reopened in its tab, the page shows the same report from the key the tab keeps', async ({ page }) => {
    await openReport(page);
    const opened = await page.locator('main').innerText();
    const reloaded = await page.reload();
    expect(await reloaded!.text()).not.toContain('ng-server-context');
    await expectWholeReport(page);
    await expect(page).toHaveURL(staffUrl(`orgId=${DEMO_ORG_ID}`));
    expect(await page.locator('main').innerText()).toBe(opened);
  });

  test('a wrong key in the link is refused on the page the service renders, and the right one opens it', async ({
    page,
  }) => {
    const response = await page.goto(staffUrl(`orgId=${DEMO_ORG_ID}&key=not-the-key`));
    expect(await response!.text()).not.toContain('not-the-key');
    await expect(page.getByRole('alert')).toContainText('was not accepted');
    await expect(page).toHaveURL(staffUrl(`orgId=${DEMO_ORG_ID}`));
    await page.getByLabel('Staff key').fill(STUB_STAFF_KEY);
    await page.getByRole('button', { name: 'Open the report' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(DEMO_ORG_NAME);
    expect(await page.evaluate((item) => sessionStorage.getItem(item), STORAGE_KEY)).toBe(STUB_STAFF_KEY);
  });

  test('asks for the key when the address has none, and again when it is wrong', async ({ page }) => {
    await page.goto(staffUrl(`orgId=${DEMO_ORG_ID}`));
    const keyField = page.getByLabel('Staff key');
    await expect(keyField).toHaveAttribute('type', 'password');
    await expectNoAxeViolations(page);

    await keyField.fill('not-the-key');
    await page.getByRole('button', { name: 'Open the report' }).click();
    await expect(page.getByRole('alert')).toContainText('was not accepted');

    await page.getByLabel('Staff key').fill(STUB_STAFF_KEY);
    await page.getByRole('button', { name: 'Open the report' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(DEMO_ORG_NAME);
  });
});

test.describe('staff report', () => {
  test('has a sticky chip per section plus Submissions; a chip jumps to its section and is marked', async ({
    page,
  }) => {
    await openReport(page);
    const strip = page.getByRole('navigation', { name: 'Report sections' });
    const chips = strip.getByRole('button');
    await expect(chips).toHaveText([
      'Organization',
      '1 · Organizing',
      '2 · Feasibility',
      '3 · Business planning',
      '4 · Capitalization',
      '5 · Open',
      'Submissions',
    ]);

    await strip.getByRole('button', { name: 'Submissions' }).click();
    await expect(page.getByRole('heading', { name: 'Submissions' })).toBeFocused();
    await expect(strip.getByRole('button', { name: 'Submissions' })).toHaveAttribute('aria-current', 'true');
    // Sticky: the strip stays at the top of the window while the page scrolls under it.
    expect((await page.locator('app-section-chips').boundingBox())?.y).toBe(0);

    await strip.getByRole('button', { name: '2 · Feasibility' }).click();
    await expect(page.getByRole('heading', { name: 'Stage 2: Feasibility' })).toBeFocused();
    await expect(strip.getByRole('button', { name: '2 · Feasibility' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await expect(strip.locator('[aria-current]')).toHaveCount(1);
  });

  test('marks the chip of the section scrolled into view', async ({ page }) => {
    await openReport(page);
    const strip = page.getByRole('navigation', { name: 'Report sections' });
    await page
      .getByRole('heading', { name: 'Stage 4: Capitalization' })
      .evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
    await expect(strip.getByRole('button', { name: '4 · Capitalization' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await page
      .getByRole('heading', { name: 'Stage 1: Organizing' })
      .evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
    await expect(strip.getByRole('button', { name: '1 · Organizing' })).toHaveAttribute(
      'aria-current',
      'true',
    );
  });

  test('shows compact rows with the latest value; earlier entries, files included, behind a toggle', async ({
    page,
  }) => {
    await openReport(page);
    const members = row(page, 'Member-owners');
    await expect(members.getByRole('definition')).toContainText('902 members');
    const toggle = members.getByRole('button', { name: '8 earlier entries' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(members.getByRole('listitem')).toHaveCount(0);
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(members.getByRole('listitem')).toHaveCount(8);
    await expect(members.getByRole('listitem').last()).toContainText('118 members');

    const study = row(page, 'Market or feasibility study');
    await expect(study.getByRole('link')).toHaveText([
      'Riverbend_market_study_2023.pdf (opens in a new tab)',
    ]);
    await study.getByRole('button', { name: '1 earlier entry' }).click();
    await expect(study.getByRole('link').last()).toHaveText(
      'preliminary_market_scan.png (opens in a new tab)',
    );
  });

  test('keeps each section’s empty fields behind an "N empty fields" toggle', async ({ page }) => {
    await openReport(page, OTHER_ORG_ID);
    const feasibility = page.locator('section', {
      has: page.getByRole('heading', { name: 'Stage 2: Feasibility' }),
    });
    const toggle = feasibility.getByRole('button', { name: '5 empty fields' });
    const list = feasibility.locator(`#${await toggle.getAttribute('aria-controls')}`);
    await expect(list).toBeHidden();
    await toggle.click();
    await expect(list).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveText([
      'Member-owners',
      'Market study',
      'Market study completed on',
      'Market or feasibility study',
      'Projected first-year sales',
    ]);
  });

  test('shows the stage-5 Y1_Q<n>_<metric> fields as a read-only matrix of metrics by quarters', async ({
    page,
  }) => {
    await openReport(page);
    const matrix = page.getByRole('table', { name: 'First year by quarter' });
    await expect(matrix.getByRole('columnheader')).toHaveText(['Metric', 'Q1', 'Q2', 'Q3', 'Q4']);
    await expect(matrix.getByRole('rowheader')).toHaveText([
      'Sales',
      'Member-owners',
      'Transactions',
      'Gross margin',
    ]);
    const sales = matrix.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Sales' }) });
    // Each cell: the latest value, the date it was given, and the value a restatement replaced.
    await expect(sales.getByRole('cell')).toHaveText([
      /^\s*\$615,400\.00 *\w+ \d+, \d{4} *was \$612,000\.00$/,
      /^\s*\$688,500\.00 *\w+ \d+, \d{4}$/,
      /^\s*\$731,200\.00 *\w+ \d+, \d{4}$/,
      /^\s*\$774,900\.00 *\w+ \d+, \d{4}$/,
    ]);
    await expect(matrix.locator('input, select, textarea, button')).toHaveCount(0);
  });

  test('links every file to its signed url, in a new tab without opener or referrer', async ({ page }) => {
    await openReport(page);
    const report = await staffReport();
    // CiviCRM's File.get answers signed addresses relative to the site: the page resolves them.
    const expected = [
      ...new Set(
        fileValues(report).map((file) => new URL(file.url ?? '', report.crmBaseUrl ?? undefined).toString()),
      ),
    ].sort();
    expect(expected).toHaveLength(5);
    expect(expected.every((url) => url.startsWith('http://crm.invalid/civicrm/file?reset=1&id='))).toBe(true);
    // Each answer signs afresh (the signature carries its expiry to the second): compare the
    // addresses, and that the page's links are signed too.
    const unsigned = (urls: string[]) => urls.map((url) => url.replace(/&fcs=[^&]+/, ''));
    const targets = await fileLinkTargets(page);
    expect(unsigned(targets)).toEqual(unsigned(expected));
    expect(targets.every((url) => /&fcs=[^&]+/.test(url))).toBe(true);
    for (const link of await page.locator('main a').all()) {
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
  });

  test('falls back to the extension route, then to the CRM file address, when the lookup failed', async ({
    page,
  }) => {
    const ids = [...new Set(fileValues(await staffReport()).map((file) => file.id))].sort((a, b) => a - b);
    const withoutUrls = async (fileRouteTemplate: string | null) => {
      await page.route('**/api/staff/report?*', async (route) => {
        const answer = await route.fetch();
        const body = (await answer.text()).replace(/,"url":"[^"]*"/g, '');
        const payload = {
          ...(JSON.parse(body) as StaffReportPayload),
          fileUrlLookup: 'failed',
          fileRouteTemplate,
        };
        await route.fulfill({ response: answer, json: payload });
      });
      await reopenReport(page);
      await expect(page.getByText('did not hand out signed file links')).toBeVisible();
      const targets = await fileLinkTargets(page);
      await page.unrouteAll();
      return [...new Set(targets)].sort();
    };
    const sortedBy = (build: (id: number) => string) => ids.map(build).sort();

    expect(await withoutUrls('civicrm/checkin-file/{id}')).toEqual(
      sortedBy((id) => `http://crm.invalid/civicrm/checkin-file/${id}`),
    );
    expect(await withoutUrls(null)).toEqual(
      sortedBy((id) => `http://crm.invalid/civicrm/file?reset=1&id=${id}`),
    );
  });

  test('passes axe in light and dark, at desktop and phone width', async ({ page }) => {
    await openReport(page);
    await expandAll(page);
    await expectNoAxeViolations(page);
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SCREENSHOTS, 'staff.png'), fullPage: true });

    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page);

    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 375, height: 812 });
    await expectNoAxeViolations(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
