import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { join } from 'node:path';
import type { ReportPayload } from '../../libs/contract/src';
import {
  DEMO_CHECK_IN_COUNT,
  DEMO_CURRENT_STAGE,
  DEMO_ORG_ID,
  DEMO_ORG_NAME,
  DEMO_PERSON_ID,
} from '../../backend/src/app/crm/in-memory/demo-data';
import { BROWSER_RENDERED, OWNER_LINK, SCREENSHOTS, useBuiltService } from './suite-service';

/**
 * The owner's history report in Chromium against the built service in stub mode (the in-memory
 * CRM with the demo data). Build first: `npx nx run-many -t build -p frontend backend`.
 */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const service = useBuiltService(BROWSER_RENDERED, { screenshots: true });
let demo: ReportPayload;

test.beforeAll(async ({ request }) => {
  const response = await request.get(`${service.url}/api/report?${OWNER_LINK}`);
  expect(response.status()).toBe(200);
  demo = (await response.json()) as ReportPayload;
});

async function openReport(page: Page): Promise<void> {
  await page.goto(`${service.url}/report?${OWNER_LINK}`);
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
  // What owners sent: the stage changes staff recorded are counted apart.
  const stageChanges = demo.activities.filter((activity) => activity.stage !== null).length;
  await expect(count(page, 'Check-ins sent')).toHaveText(String(DEMO_CHECK_IN_COUNT - stageChanges));
  await expect(count(page, 'Stage changes by staff')).toHaveText(String(stageChanges));
  // Every answered field, the quarterly cells and the co-op's own facts included.
  await expect(count(page, 'Questions answered')).toHaveText(
    String(Object.keys(demo.fieldHistory).length + demo.organizationFacts.fields.length),
  );
  await expect(count(page, 'History covers')).toHaveText('February 2022 – November 2026');
  // Summary first (progress, key figures, timeline), then the detail stage by stage.
  await expect(page.getByRole('heading', { level: 2 })).toHaveText([
    'Progress through the stages',
    'Your co-op',
    'Key figures',
    'Timeline',
    'Stage 1 Organizing',
    'Stage 2 Feasibility',
    'Stage 3 Business planning',
    'Stage 4 Capitalization',
    'Stage 5 Open',
  ]);
  await expect(page.getByRole('link', { name: 'Back to the check-in form' })).toHaveAttribute(
    'href',
    `/?${OWNER_LINK}`,
  );
});

/** Opens a stage card that starts collapsed (the stages before the current one). */
async function openStage(page: Page, name: string): Promise<void> {
  const toggle = page.getByRole('button', { name, exact: true });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
}

test('expands a field’s earlier entries, led by its trend chart', async ({ page }) => {
  await openReport(page);
  await openStage(page, 'Stage 2 Feasibility');
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
  await openStage(page, 'Stage 2 Feasibility');
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

/** The demo report changed by `edit`, served in place of the API's answer. */
async function serveReport(page: Page, edit: (report: ReportPayload) => void): Promise<void> {
  const report = structuredClone(demo);
  edit(report);
  await page.route('**/api/report?*', (route) =>
    route.fulfill({ contentType: 'application/json', body: JSON.stringify(report) }),
  );
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}px`, () => {
    test.use({ viewport });

    test('summarizes before it lists: stage progress, key figures with trends, then the stages', async ({
      page,
    }) => {
      await openReport(page);

      const progress = page.getByRole('region', { name: 'Progress through the stages' });
      await expect(progress.getByRole('listitem')).toHaveCount(demo.stages.length);
      await expect(progress.locator('[aria-current="step"]')).toContainText(DEMO_CURRENT_STAGE.label);
      await expect(progress.locator('[aria-current="step"]')).toContainText('(current stage)');

      const figures = page.getByRole('region', { name: 'Key figures' });
      await expect(figures.getByRole('heading', { level: 3 })).toHaveText([
        'Member-owners',
        'Member equity raised',
        'Percent capitalized',
        'Projected first-year sales',
      ]);
      const members = figures.getByRole('listitem').filter({ hasText: 'Member-owners' });
      await expect(members).toContainText('902');
      await expect(members.locator('svg.sparkline polyline')).toHaveCount(1);
      await expect(figures.getByRole('listitem').filter({ hasText: 'Member equity raised' })).toContainText(
        /of a \$[\d,.]+ goal \(\d+%\)/,
      );

      // The table stands in for the line, by keyboard.
      const show = members.getByRole('button', { name: 'Show the numbers' });
      await show.focus();
      await page.keyboard.press('Enter');
      const table = members.getByRole('table', { name: 'Member-owners, oldest first' });
      await expect(table.locator('tbody tr')).toHaveCount(
        demo.fieldHistory['Member_owner_count']?.length ?? 0,
      );
      await expect(table.locator('tbody tr').last()).toContainText('902');

      // Earlier stages start collapsed; the current one and later are open.
      for (const name of ['Stage 1 Organizing', 'Stage 2 Feasibility']) {
        await expect(page.getByRole('button', { name, exact: true })).toHaveAttribute(
          'aria-expanded',
          'false',
        );
      }
      await expect(page.locator('#stage-1-body')).toBeHidden();
      await expect(page.getByRole('button', { name: 'Stage 3 Business planning' })).toHaveAttribute(
        'aria-expanded',
        'true',
      );
      await openStage(page, 'Stage 1 Organizing');
      await expect(page.locator('#stage-1-body')).toBeVisible();
      await expect(page.locator('#stage-1-body app-field-entries').first()).toBeVisible();

      // The quarterly fields are one table, as on the staff page, not sixteen rows.
      const quarters = page.getByRole('table', { name: 'First year by quarter' });
      await expect(quarters.locator('thead th')).toHaveText(['Metric', 'Q1', 'Q2', 'Q3', 'Q4']);
      await expect(quarters.locator('tbody th')).toHaveText([
        'Sales',
        'Member-owners',
        'Transactions',
        'Gross margin',
      ]);
      await expect(page.locator('app-field-entries h3', { hasText: /^Year 1, Q/ })).toHaveCount(0);

      const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
      expect(violations).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });

    test('a timeline marker opens its collapsed stage and focuses its field', async ({ page }) => {
      await openReport(page);
      await page.getByRole('button', { name: /^Date of the first public meeting: / }).click();

      await expect(page.getByRole('button', { name: 'Stage 1 Organizing' })).toHaveAttribute(
        'aria-expanded',
        'true',
      );
      await expect(
        page.getByRole('heading', { level: 3, name: 'Date of the first public meeting' }),
      ).toBeFocused();
    });

    test('an empty report says what will appear after the first check-in', async ({ page }) => {
      await serveReport(page, (report) => {
        report.activities = [];
        report.fieldHistory = {};
      });
      await openReport(page);

      await expect(page.getByRole('heading', { level: 2, name: 'No check-ins yet' })).toBeVisible();
      await expect(
        page.getByText(/After your first check-in, this page shows your co-op’s key figures/),
      ).toBeVisible();
      await expect(page.getByRole('link', { name: 'Start your first check-in' })).toHaveAttribute(
        'href',
        `/?${OWNER_LINK}`,
      );
      await expect(page.getByRole('region', { name: 'Key figures' })).toHaveCount(0);
      const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
      expect(violations).toEqual([]);
    });

    test('two answers given on one day still draw a trend chart', async ({ page }) => {
      await serveReport(page, (report) => {
        report.fieldHistory['Steering_committee_size'] = [
          { value: 11, date: '2024-05-02 18:30:00', activityId: 9002 },
          { value: 9, date: '2024-05-02 09:15:00', activityId: 9001 },
        ];
      });
      await openReport(page);
      await openStage(page, 'Stage 1 Organizing');
      const field = page
        .locator('app-field-entries')
        .filter({ has: page.getByRole('heading', { name: 'Steering committee size' }) });
      await field.getByRole('button', { name: '1 earlier entry' }).click();

      await expect(field.locator('figure.trend svg path.line')).toHaveCount(1);
      await expect(field.locator('figcaption')).toContainText(
        '2 points from May 2, 2024 (9) to May 2, 2024 (11)',
      );
    });

    test('every stage 1–5 has its timeline lane, an empty one saying so', async ({ page }) => {
      await serveReport(page, (report) => {
        delete report.fieldHistory['Business_plan_date'];
      });
      await openReport(page);
      const timeline = page.locator('app-report-timeline');

      await expect(timeline.locator('.lane-title')).toHaveText([
        'Stage 1: Organizing',
        'Stage 2: Feasibility',
        'Stage 3: Business planning',
        'Stage 4: Capitalization',
        'Stage 5: Open',
      ]);
      await expect(timeline.locator('.lane').nth(2)).toContainText('No dates yet');
      await expect(timeline.locator('.lane').nth(2).getByRole('button')).toHaveCount(0);
    });
  });
}
