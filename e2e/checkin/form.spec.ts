import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { join } from 'node:path';
import type { ReportPayload } from '../../libs/contract/src';
import {
  DEMO_CURRENT_STAGE,
  DEMO_ORG_ID,
  DEMO_ORG_NAME,
  DEMO_PERSON,
  DEMO_PERSON_ID,
} from '../../backend/src/app/crm/in-memory/demo-data';
import { BROWSER_RENDERED, OWNER_LINK, SCREENSHOTS, useBuiltService } from './suite-service';

/**
 * The owner's check-in form in Chromium against the built service in stub mode (the in-memory
 * CRM with the demo data). Build first: `npx nx run-many -t build -p frontend backend`.
 */
const DRAFT_KEY = `org_engagement_check_in:${DEMO_PERSON_ID}:${DEMO_ORG_ID}`;

/** A small but real PDF: its leading bytes are what the server's type check looks for. */
const PLAN_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Title (Second store business plan) >> endobj\ntrailer << /Info 1 0 R >>\n%%EOF\n',
  'latin1',
);

const service = useBuiltService(BROWSER_RENDERED, { screenshots: true });

async function openForm(page: Page): Promise<void> {
  await page.goto(`${service.url}/?${OWNER_LINK}`);
  await expect(page.getByRole('heading', { name: 'Your co-op', level: 2 })).toBeVisible();
}

async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

function storedDraft(page: Page): Promise<string | null> {
  return page.evaluate((key) => window.localStorage.getItem(key), DRAFT_KEY);
}

async function expectIdentity(page: Page): Promise<void> {
  const facts = page.locator('dl').first();
  await expect(facts).toContainText(`First name${DEMO_PERSON.first_name}`);
  await expect(facts).toContainText(`Last name${DEMO_PERSON.last_name}`);
  await expect(facts).toContainText(`Email${DEMO_PERSON.email}`);
  await expect(facts).toContainText(`Current stage${DEMO_CURRENT_STAGE.label}`);
}

async function report(): Promise<ReportPayload> {
  const response = await fetch(`${service.url}/api/report?${OWNER_LINK}`);
  expect(response.status).toBe(200);
  return (await response.json()) as ReportPayload;
}

test('an owner edits, uploads, comes back to the draft, survives a failed send and checks in', async ({
  page,
}) => {
  await openForm(page);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(DEMO_ORG_NAME);
  await expectIdentity(page);
  await expect(page.getByRole('button', { name: /^Business planning\W+Current stage$/ })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await expect(page.getByRole('button', { name: /^Organizing\W+Earlier stage$/ })).toHaveAttribute(
    'aria-expanded',
    'false',
  );
  await expect(page.getByRole('button', { name: /^Capitalization/ })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // Edit fields of several types.
  await page.getByLabel('Equity share price').fill('275');
  await page.getByLabel('Planned sales floor').fill('6500');
  await page.getByLabel('Store site').selectOption({ label: 'Lease signed' });
  await page.getByRole('group', { name: 'Business plan done' }).getByLabel('Yes').check();
  await page.getByRole('button', { name: /^Organizing\W+Earlier stage$/ }).click();
  await page.getByRole('group', { name: 'What the co-op will offer' }).getByLabel('Community space').check();
  await expect(
    page.getByRole('status').filter({ hasText: /^Draft saved \d{1,2}:\d\d(\s[AP]M)?$/ }),
  ).toBeVisible();

  // Upload a file: the request is held until the progress bar has been seen.
  let releaseUpload: () => void = () => undefined;
  const uploadHeld = new Promise<void>((resolve) => (releaseUpload = resolve));
  await page.route('**/api/upload', async (route) => {
    await uploadHeld;
    await route.continue();
  });
  await page.getByLabel('Business plan', { exact: true }).setInputFiles({
    name: 'second-store-plan.pdf',
    mimeType: 'application/pdf',
    buffer: PLAN_PDF,
  });
  await expect(page.getByRole('progressbar', { name: 'Uploading second-store-plan.pdf' })).toBeVisible();
  const send = page.getByRole('button', { name: 'Review and send' });
  await expect(send).toBeDisabled();
  await expect(page.locator('#submit-reason')).toHaveText(
    'Wait for the file upload to finish before sending.',
  );
  releaseUpload();
  await expect(page.locator('#field-Business_plan-group')).toContainText(
    // CiviCRM names the stored file its own way (README, "Uploads").
    'Stored file: second_store_plan.pdf',
  );
  await expect(send).toBeEnabled();
  await page.unroute('**/api/upload');
  await expect.poll(() => storedDraft(page)).toContain('second_store_plan.pdf');

  // Come back later: the draft is offered, restored, and identity stays the CRM's.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'You have an unsent draft' })).toBeVisible();
  await expectIdentity(page);
  await expect(page.getByLabel('Equity share price')).not.toHaveValue('275');
  await page.getByRole('button', { name: 'Restore draft' }).click();
  await expect(page.getByLabel('Equity share price')).toHaveValue('275');
  await expect(page.getByLabel('Planned sales floor')).toHaveValue('6500');
  await expect(page.locator('#field-Business_plan-group')).toContainText(
    'Stored file: second_store_plan.pdf',
  );
  await expectIdentity(page);
  await page.screenshot({ path: join(SCREENSHOTS, 'form.png'), fullPage: true });

  // The CRM is down once: the draft stays and the page says what to do.
  await page.route(
    '**/api/submit',
    (route) =>
      route.fulfill({
        status: 502,
        json: { statusCode: 502, code: 'CRM_UNAVAILABLE', message: 'The CRM could not be reached.' },
      }),
    { times: 1 },
  );
  await send.click();
  const sendNow = page.getByRole('button', { name: 'Send check-in' });
  await sendNow.click();
  const failure = page.locator('app-check-in-review').getByRole('alert');
  await expect(failure).toContainText(
    'Your answers are kept as a draft on this device. Try again in a few minutes.',
  );
  await expect(failure).toBeFocused();
  expect(await storedDraft(page)).toContain('"Equity_share":"275"');

  // Sent again: the CRM records it, the draft is cleared, the confirmation links to the report.
  await sendNow.click();
  const confirmation = page.getByRole('heading', { name: 'Check-in recorded' });
  await expect(confirmation).toBeVisible();
  await expect(confirmation).toBeFocused();
  expect(await storedDraft(page)).toBeNull();
  await expect(page.getByRole('link', { name: 'See your check-in history' })).toHaveAttribute(
    'href',
    `/report?${OWNER_LINK}`,
  );
  await expectNoAxeViolations(page);

  const history = (await report()).fieldHistory;
  expect(history['Store_size_sqft']?.[0]?.value).toBe(6500);
  expect(history['Site_status']?.[0]?.value).toBe('4');
  expect(history['Business_plan']?.[0]?.value).toEqual(
    expect.objectContaining({ file_name: 'second_store_plan.pdf' }),
  );
});

test('on a phone in dark mode, a refused answer is listed above the form and leads to its field', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await openForm(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await page.getByLabel('Equity share price').fill('a lot');
  await page.getByRole('button', { name: 'Review and send' }).click();
  const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
  await expect(summary).toBeFocused();
  await summary.getByRole('link', { name: 'Equity share price: Enter a number, like 1250.' }).click();
  const equity = page.getByLabel('Equity share price');
  await expect(equity).toBeFocused();
  await expect(equity).toHaveAttribute('aria-invalid', 'true');
  await expect(equity).toHaveAccessibleDescription(/Enter a number, like 1250\./);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: join(SCREENSHOTS, 'form-phone-dark.png'), fullPage: true });

  // WCAG 2.2 target size: every button, choice and field is at least 24 px tall and wide.
  const targets = page.locator(
    'main button:visible, main input:visible, main select:visible, main a:visible',
  );
  for (const box of await targets.evaluateAll((elements) =>
    elements.map((element) => {
      const { width, height } = element.getBoundingClientRect();
      return { name: element.textContent?.trim() || element.id, width, height };
    }),
  )) {
    expect.soft(Math.min(box.width, box.height), box.name).toBeGreaterThanOrEqual(24);
  }
});

test('the form works by keyboard: choices, and removing, picking and replacing a file', async ({ page }) => {
  await openForm(page);
  const planDone = page.getByRole('group', { name: 'Business plan done' });
  await planDone.getByRole('radio', { name: 'Yes' }).click();
  await page.keyboard.press('ArrowRight');
  await expect(planDone.getByRole('radio', { name: 'No', exact: true })).toBeChecked();
  await expect(planDone.getByRole('radio', { name: 'No', exact: true })).toBeFocused();

  await page.getByRole('button', { name: 'Remove Certificate of incorporation' }).focus();
  await page.keyboard.press('Enter');
  // Focus lands on the undo, which stays offered until the check-in is sent.
  await expect(page.getByRole('button', { name: 'Undo remove Certificate of incorporation' })).toBeFocused();
  const picker = page.getByLabel('Certificate of incorporation');
  await expect(picker).toBeVisible();

  // Opening the system file dialog from a focused native input is the browser's own behaviour
  // (and unreliable to drive headless); the form's part is putting focus there.
  await picker.setInputFiles({ name: 'certificate.pdf', mimeType: 'application/pdf', buffer: PLAN_PDF });
  const replace = page.getByRole('button', { name: 'Replace Certificate of incorporation' });
  await expect(replace).toBeFocused();
  await expect(page.locator('#field-Certificate_of_Incorporation-group')).toContainText(
    'Stored file: certificate.pdf',
  );

  // Enter on Replace opens the picker: its click, the part the form owns, stopped before the
  // system dialog (which headless Chromium does not reliably report as a file chooser).
  await picker.evaluate((input) => {
    input.addEventListener(
      'click',
      (event) => {
        event.preventDefault();
        input.dataset['opened'] = 'yes';
      },
      { once: true },
    );
  });
  await page.keyboard.press('Enter');
  await expect(picker).toHaveAttribute('data-opened', 'yes');
  await expect(picker).not.toHaveAttribute('multiple');
});
