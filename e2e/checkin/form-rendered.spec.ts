import { expect, type Page, test } from '@playwright/test';
import type { ReportPayload } from '../../libs/contract/src';
import { DEMO_ORG_ID, DEMO_ORG_NAME, DEMO_PERSON_ID } from '../../backend/src/app/crm/in-memory/demo-data';
import { appRunning, startTheApp } from '../support/app-start';
import { OWNER_LINK, useBuiltService } from './suite-service';

/**
 * The form as owners get it by default: rendered by the service with their data, then hydrated
 * once the owner acts (docs/performance.md, "Server-rendered owner pages"). The draft, upload and send paths of
 * form.spec.ts, which runs browser-rendered, here on the server-rendered page: the draft is saved
 * and offered again, a failed send keeps it, a recorded check-in clears it. Stub mode; build
 * first: `npx nx run-many -t build -p frontend backend`.
 */
const DRAFT_KEY = `org_engagement_check_in:${DEMO_PERSON_ID}:${DEMO_ORG_ID}`;
const PLAN_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Title (Rendered page plan) >> endobj\ntrailer << /Info 1 0 R >>\n%%EOF\n',
  'latin1',
);

// The default: SERVER_RENDERING is not set.
const service = useBuiltService();

/**
 * Opens the form, acts on it as the owner would and waits until the app has taken the rendered
 * page over: the buttons and the draft need the app. Also checks the page came rendered, with
 * its data.
 */
async function openRenderedForm(page: Page): Promise<string[]> {
  const dataRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/data') dataRequests.push(request.url());
  });
  const answer = await page.goto(`${service.url}/?${OWNER_LINK}`);
  const html = (await answer?.text()) ?? '';
  expect(html).toContain('id="ng-state"');
  expect(html).toContain(DEMO_ORG_NAME);
  await startTheApp(page);
  return dataRequests;
}

function storedDraft(page: Page): Promise<string | null> {
  return page.evaluate((key) => window.localStorage.getItem(key), DRAFT_KEY);
}

async function report(): Promise<ReportPayload> {
  const response = await fetch(`${service.url}/api/report?${OWNER_LINK}`);
  expect(response.status).toBe(200);
  return (await response.json()) as ReportPayload;
}

test('on the server-rendered form an owner types, uploads, keeps the draft through a failed send and checks in', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // The browser's own line for the 502 the test fakes below is not the app's.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(message.text());
  });
  const dataRequests = await openRenderedForm(page);

  await page.getByLabel('Equity share price').fill('315');
  await page.getByLabel('Planned sales floor').fill('7200');
  await expect(
    page.getByRole('status').filter({ hasText: /^Draft saved \d{1,2}:\d\d(\s[AP]M)?$/ }),
  ).toBeVisible();
  await expect.poll(() => storedDraft(page)).toContain('"Equity_share":"315"');

  await page.getByLabel('Business plan', { exact: true }).setInputFiles({
    name: 'rendered-plan.pdf',
    mimeType: 'application/pdf',
    buffer: PLAN_PDF,
  });
  await expect(page.locator('#field-Business_plan-group')).toContainText('Stored file: rendered_plan.pdf');
  await expect.poll(() => storedDraft(page)).toContain('rendered_plan.pdf');

  // Back later: the rendered page shows the CRM's answers; with a draft to offer, the app starts
  // at once, without waiting for the owner to act, and offers it.
  await page.reload();
  await appRunning(page);
  await expect(page.getByRole('heading', { name: 'You have an unsent draft' })).toBeVisible();
  await expect(page.getByLabel('Equity share price')).not.toHaveValue('315');
  await page.getByRole('button', { name: 'Restore draft' }).click();
  await expect(page.getByLabel('Equity share price')).toHaveValue('315');
  await expect(page.getByLabel('Planned sales floor')).toHaveValue('7200');
  await expect(page.locator('#field-Business_plan-group')).toContainText('Stored file: rendered_plan.pdf');

  // The CRM is down once: the draft stays.
  await page.route(
    '**/api/submit',
    (route) =>
      route.fulfill({
        status: 502,
        json: { statusCode: 502, code: 'CRM_UNAVAILABLE', message: 'The CRM could not be reached.' },
      }),
    { times: 1 },
  );
  await page.getByRole('button', { name: 'Review and send' }).click();
  const sendNow = page.getByRole('button', { name: 'Send check-in' });
  await sendNow.click();
  await expect(page.locator('app-check-in-review').getByRole('alert')).toContainText(
    'Your answers are kept as a draft on this device. Try again in a few minutes.',
  );
  expect(await storedDraft(page)).toContain('"Equity_share":"315"');

  // Sent again: recorded in the CRM, the draft cleared.
  await sendNow.click();
  await expect(page.getByRole('heading', { name: 'Check-in recorded' })).toBeVisible();
  expect(await storedDraft(page)).toBeNull();
  const history = (await report()).fieldHistory;
  expect(history['Store_size_sqft']?.[0]?.value).toBe(7200);
  expect(history['Business_plan']?.[0]?.value).toEqual(
    expect.objectContaining({ file_name: 'rendered_plan.pdf' }),
  );

  // Opened again: the service renders the recorded answers, and there is no draft to offer.
  await page.reload();
  await startTheApp(page);
  await expect(page.getByLabel('Planned sales floor')).toHaveValue('7200');
  await expect(page.getByRole('heading', { name: 'You have an unsent draft' })).toHaveCount(0);

  // The data came inside the pages: the browser never asked for it.
  expect(dataRequests).toEqual([]);
  expect(errors).toEqual([]);
});

test('on the server-rendered form a send that fails keeps the typed answers and the draft', async ({
  page,
}) => {
  await openRenderedForm(page);
  await page.getByLabel('Planned sales floor').fill('8100');
  await expect.poll(() => storedDraft(page)).toContain('8100');
  await page.route('**/api/submit', (route) =>
    route.fulfill({
      status: 504,
      json: { statusCode: 504, code: 'CRM_TIMEOUT', message: 'The CRM did not answer in time.' },
    }),
  );
  await page.getByRole('button', { name: 'Review and send' }).click();
  await page.getByRole('button', { name: 'Send check-in' }).click();
  await expect(page.locator('app-check-in-review').getByRole('alert')).toContainText(
    'Your answers are kept as a draft on this device.',
  );
  expect(await storedDraft(page)).toContain('8100');
  await expect(page.getByRole('heading', { name: 'Check-in recorded' })).toHaveCount(0);
  // Reopened: the draft is offered again and holds the answer.
  await page.unroute('**/api/submit');
  await page.reload();
  await appRunning(page);
  await expect(page.getByRole('heading', { name: 'You have an unsent draft' })).toBeVisible();
  await page.getByRole('button', { name: 'Restore draft' }).click();
  await expect(page.getByLabel('Planned sales floor')).toHaveValue('8100');
});
