import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ReportPayload } from '../../libs/contract/src';
import {
  DEMO_CHECK_IN_COUNT,
  DEMO_CHECKSUM,
  DEMO_CURRENT_STAGE,
  DEMO_ORG_ID,
  DEMO_ORG_NAME,
  DEMO_PERSON_ID,
} from '../../backend/src/app/crm/in-memory/demo-data';
import { type RunningProcess, startService } from '../support/app-server';

/**
 * The owner's history report in Chromium against the built service in stub mode (the in-memory
 * CRM with the demo data). Build first: `npx nx run-many -t build -p frontend backend`.
 */
const SCREENSHOTS = join(resolve(__dirname, '..', '..'), 'dist', 'e2e', 'screenshots');
const LINK_QUERY = `contactId=${DEMO_PERSON_ID}&orgId=${DEMO_ORG_ID}&cid=${DEMO_PERSON_ID}&cs=${DEMO_CHECKSUM}`;
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

let service: RunningProcess;
let demo: ReportPayload;

test.beforeAll(async ({ request }) => {
  service = await startService();
  await mkdir(SCREENSHOTS, { recursive: true });
  const response = await request.get(`${service.url}/api/report?${LINK_QUERY}`);
  expect(response.status()).toBe(200);
  demo = (await response.json()) as ReportPayload;
});

test.afterAll(async () => {
  await service?.stop();
});

async function openReport(page: Page): Promise<void> {
  await page.goto(`${service.url}/report?${LINK_QUERY}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(DEMO_ORG_NAME);
}

/** ngx-charts fades in and draws its line: screenshots and checks wait until that is over. */
async function animationsFinished(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
}

function count(page: Page, name: string) {
  return page
    .locator('.counts div')
    .filter({ has: page.getByText(name, { exact: true }) })
    .locator('dd');
}

test('shows the organization, its stage and the counts of the demo history', async ({ page }) => {
  await openReport(page);

  await expect(page).toHaveTitle(`${DEMO_ORG_NAME} · Check-in history`);
  await expect(page.getByText('Current stage:')).toContainText(DEMO_CURRENT_STAGE.label);
  await expect(count(page, 'Check-ins')).toHaveText(String(DEMO_CHECK_IN_COUNT));
  await expect(count(page, 'Fields tracked')).toHaveText(String(Object.keys(demo.fieldHistory).length));
  await expect(count(page, 'Date span')).toHaveText('February 2022 – November 2026');
  await expect(page.getByRole('heading', { level: 2 })).toHaveText([
    'Stage 1 Organizing',
    'Stage 2 Feasibility',
    'Stage 3 Business planning',
    'Stage 4 Capitalization',
    'Stage 5 Open',
    'Timeline',
  ]);
  await expect(page.getByRole('link', { name: 'Back to the check-in form' })).toHaveAttribute(
    'href',
    `/?${LINK_QUERY}`,
  );
});

test('expands a field’s earlier entries, led by its trend chart', async ({ page }) => {
  await openReport(page);
  const entries = demo.fieldHistory['Member_owner_count'] ?? [];
  const field = page
    .locator('app-field-entries')
    .filter({ has: page.getByRole('heading', { name: 'Member-owners', exact: true }) });
  const toggle = field.getByRole('button', { name: `${entries.length - 1} earlier entries` });

  await expect(field.locator('.latest')).toContainText('902');
  await expect(field.locator('.latest')).toContainText('March 10, 2025');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();

  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(
    field.getByRole('list', { name: 'Earlier entries: Member-owners' }).getByRole('listitem'),
  ).toHaveCount(entries.length - 1);
  const chart = field.locator('figure.trend');
  await expect(chart.locator('svg path.line')).toHaveCount(1);
  await expect(chart.locator('figcaption')).toContainText('Lowest 118');
  await expect(chart.locator('figcaption')).toContainText('Highest 902');
  await animationsFinished(page);
  const box = await chart.locator('svg').first().boundingBox();
  expect(box?.width).toBeGreaterThan(200);
  expect(box?.height).toBeGreaterThan(80);

  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(field.locator('figure.trend')).toHaveCount(0);
});

test('draws the timeline of the stage dates, and its markers lead to their fields by keyboard', async ({
  page,
}) => {
  await openReport(page);
  const timeline = page.locator('app-report-timeline');

  await expect(timeline.locator('.lane-title')).toHaveText([
    'Stage 1: Organizing',
    'Stage 2: Feasibility',
    'Stage 3: Business planning',
    'Stage 4: Capitalization',
    'Stage 5: Open',
  ]);
  await expect(timeline).toContainText('The store opened on March 8, 2025.');
  const opened = timeline.getByRole('button', { name: 'Date opened: March 8, 2025' });
  await expect(opened).toHaveClass(/emphasized/);

  await opened.focus();
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { level: 3, name: 'Date opened' })).toBeFocused();
});

test('explains a link that is not valid', async ({ page }) => {
  await page.goto(`${service.url}/report?cid=${DEMO_PERSON_ID}&orgId=${DEMO_ORG_ID}&cs=wrong`);

  await expect(page.getByRole('alert')).toContainText('This link is not valid or has expired');
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
});

test('has no accessibility violations with a chart drawn, on a desktop and a phone', async ({ page }) => {
  await openReport(page);
  await page
    .locator('app-field-entries')
    .filter({ has: page.getByRole('heading', { name: 'Projected first-year sales' }) })
    .getByRole('button', { name: /earlier entr/ })
    .click();
  await expect(page.locator('figure.trend svg path.line')).toHaveCount(1);
  await animationsFinished(page);

  const desktop = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  expect(desktop.violations).toEqual([]);
  await page.screenshot({ path: join(SCREENSHOTS, 'report.png'), fullPage: true, animations: 'disabled' });

  await page.setViewportSize({ width: 390, height: 844 });
  await animationsFinished(page);
  const phone = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  expect(phone.violations).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({
    path: join(SCREENSHOTS, 'report-phone.png'),
    fullPage: true,
    animations: 'disabled',
  });
});
