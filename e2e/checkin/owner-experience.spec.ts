import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import type { ReportPayload } from '../../libs/contract/src';
import {
  DEMO_CHECKSUM,
  DEMO_ORG_ID,
  DEMO_ORG_NAME,
  DEMO_PERSON_ID,
  MULTI_ORG_PERSON_CHECKSUM,
  MULTI_ORG_PERSON_ID,
} from '../../backend/src/app/crm/in-memory/demo-data';
import { type RunningProcess, startService } from '../support/app-server';

/**
 * The owner's experience of issue 15 (items 1, 2, 3, 5, 6), each at a desktop width and on a
 * phone, against the built service in stub mode. Every test starts its own service, so each
 * begins from the same demo data. Build first: `npx nx run-many -t build`.
 */
const LINK_QUERY = `contactId=${DEMO_PERSON_ID}&orgId=${DEMO_ORG_ID}&cid=${DEMO_PERSON_ID}&cs=${DEMO_CHECKSUM}`;
const DRAFT_KEY = `org_engagement_check_in:${DEMO_PERSON_ID}:${DEMO_ORG_ID}`;
const ORGANIZER = { ORGANIZER_NAME: 'Sam Rivera', ORGANIZER_EMAIL: 'sam@example.org' };
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Title (Plan) >> endobj\ntrailer << /Info 1 0 R >>\n%%EOF\n',
  'latin1',
);

const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

function focusIsInMain(page: Page): Promise<boolean> {
  return page.evaluate(() => document.activeElement?.closest('main') !== null);
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`owner experience (${name})`, () => {
    test.use({ viewport });
    let service: RunningProcess;

    // A fresh service per test: each starts from the demo data, whatever the one before sent.
    // The browser-rendered pages: these tests serve some API answers from the test (page.route)
    // and act at once; the server-rendered pages are tested in before-hydration, preload and csp.spec.ts.
    test.beforeEach(async () => {
      service = await startService({ ...ORGANIZER, SERVER_RENDERING: 'false' });
    });

    test.afterEach(async () => {
      await service?.stop();
    });

    const formUrl = () => `${service.url}/?${LINK_QUERY}`;

    async function openForm(page: Page): Promise<void> {
      await page.goto(formUrl());
      await expect(page.getByRole('heading', { name: 'Your co-op', level: 2 })).toBeVisible();
    }

    async function report(): Promise<ReportPayload> {
      const response = await fetch(`${service.url}/api/report?${LINK_QUERY}`);
      expect(response.status).toBe(200);
      return (await response.json()) as ReportPayload;
    }

    /** Review, then Send: the receipt's heading is shown. */
    async function reviewAndSend(page: Page): Promise<void> {
      await page.getByRole('button', { name: 'Review and send' }).click();
      await expect(page.getByRole('heading', { name: 'Check your answers before sending' })).toBeFocused();
      await page.getByRole('button', { name: 'Send check-in' }).click();
      await expect(page.getByRole('heading', { name: 'Check-in recorded' })).toBeFocused();
    }

    test('1: the skip link moves focus into main and keeps the page and its address', async ({ page }) => {
      const pages = [
        { url: formUrl(), ready: page.getByRole('heading', { name: 'Your co-op', level: 2 }) },
        { url: `${service.url}/report?${LINK_QUERY}`, ready: page.getByRole('heading', { level: 1 }) },
        { url: `${service.url}/staff?orgId=${DEMO_ORG_ID}`, ready: page.getByRole('heading', { level: 1 }) },
      ];
      for (const { url, ready } of pages) {
        await page.goto(url);
        await expect(ready).toBeVisible();
        await page.keyboard.press('Tab');
        const skip = page.getByRole('link', { name: 'Skip to content' });
        await expect(skip).toBeFocused();
        await page.keyboard.press('Enter');
        await expect.poll(() => focusIsInMain(page)).toBe(true);
        expect(page.url()).toBe(url);
        await expect(ready).toBeVisible();
        await expect(page.getByText('This link is incomplete')).toHaveCount(0);
      }
      await expectNoAxeViolations(page);
    });

    test('2: a check-in records changes, not repeats, and a cleared answer stays cleared', async ({
      page,
    }) => {
      const before = await report();
      const sqftEntries = before.fieldHistory['Store_size_sqft']?.length ?? 0;
      await openForm(page);

      // Prefilled answers say when they were given; "since the last check-in" starts empty.
      const sqft = page.getByLabel('Planned sales floor');
      await expect(sqft).toHaveValue('4200');
      await expect(sqft).toHaveAccessibleDescription(/Last given July 2026/);
      await page.getByRole('button', { name: /^Organizing\W+Earlier stage$/ }).click();
      await expect(page.getByLabel('What happened since the last check-in')).toHaveValue('');
      await expectNoAxeViolations(page);

      // Untouched: the check-in is recorded with no values, and no field gains an entry.
      const untouched = page.waitForRequest('**/api/submit');
      await reviewAndSend(page);
      expect((await untouched).postDataJSON()).toEqual(expect.objectContaining({ values: {} }));
      const afterUntouched = await report();
      expect(afterUntouched.activities.length).toBe(before.activities.length + 1);
      expect(afterUntouched.fieldHistory['Store_size_sqft']?.length ?? 0).toBe(sqftEntries);

      // Only what changed is sent; a cleared answer is sent as null and the next prefill keeps it cleared.
      await page.getByRole('button', { name: 'Start another check-in' }).click();
      await expect(sqft).toHaveValue('4200');
      await sqft.fill('');
      await page.getByLabel('Equity share price').fill('275');
      await page.getByRole('button', { name: 'Review and send' }).click();
      const review = page.locator('app-check-in-review');
      await expect(review.locator('[data-field="Store_size_sqft"]')).toContainText('Will be cleared');
      await expect(review.locator('[data-field="Store_size_sqft"]')).toContainText('Was: 4,200');
      const changed = page.waitForRequest('**/api/submit');
      await page.getByRole('button', { name: 'Send check-in' }).click();
      await expect(page.getByRole('heading', { name: 'Check-in recorded' })).toBeVisible();
      expect((await changed).postDataJSON().values).toEqual({ Equity_share: 275, Store_size_sqft: null });

      await page.getByRole('button', { name: 'Start another check-in' }).click();
      await expect(page.getByLabel('Equity share price')).toHaveValue('275');
      await expect(sqft).toHaveValue('');
      await expect(sqft).not.toHaveAccessibleDescription(/Last given/);
      const history = (await report()).fieldHistory['Store_size_sqft'];
      expect(history?.[0]?.value).toBeNull();
      expect(history?.[1]?.value).toBe(4200);
    });

    test('3: Enter never sends; review lists the changes; Remove is undoable; the receipt says what was recorded', async ({
      page,
    }) => {
      await openForm(page);
      await expect(page).toHaveTitle(`${DEMO_ORG_NAME} – Co-op check-in`);
      let submits = 0;
      page.on('request', (request) => {
        if (request.url().includes('/api/submit')) submits += 1;
      });

      // Enter in a one-line field neither sends nor opens the review.
      const sqft = page.getByLabel('Planned sales floor');
      await sqft.fill('6500');
      await sqft.press('Enter');
      await page.getByLabel('Name on incorporation certificate').press('Enter');
      await expect(page.getByRole('heading', { name: 'Check your answers before sending' })).toHaveCount(0);
      expect(submits).toBe(0);

      // The empty file picker says what it takes up front; Remove can be undone until sending.
      const certificate = page.locator('#field-Certificate_of_Incorporation-group');
      await page.getByRole('button', { name: 'Remove Certificate of incorporation' }).click();
      await expect(certificate).toContainText('will be removed when you send the check-in');
      await expect(page.getByLabel('Certificate of incorporation')).toHaveAccessibleDescription(
        /PDF.* up to 5 MB\./,
      );
      await page.getByRole('button', { name: 'Undo remove Certificate of incorporation' }).click();
      await expect(page.getByRole('button', { name: 'Replace Certificate of incorporation' })).toBeFocused();
      await page.getByRole('button', { name: 'Remove Certificate of incorporation' }).click();
      await expectNoAxeViolations(page);

      // Review: what changes, old and new; Edit goes back without sending.
      await page.getByRole('button', { name: 'Review and send' }).click();
      const review = page.locator('app-check-in-review');
      await expect(page.getByRole('heading', { name: 'Check your answers before sending' })).toBeFocused();
      await expect(page).toHaveTitle(`Check your answers – ${DEMO_ORG_NAME} – Co-op check-in`);
      await expect(review.locator('[data-field="Store_size_sqft"]')).toContainText('6,500');
      await expect(review.locator('[data-field="Store_size_sqft"]')).toContainText('Was: 4,200');
      await expect(review.locator('[data-field="Certificate_of_Incorporation"]')).toContainText(
        'Will be removed',
      );
      await expect(review.locator('dl > div')).toHaveCount(2);
      await expectNoAxeViolations(page);
      await page.getByRole('button', { name: 'Change Planned sales floor' }).click();
      await expect(sqft).toBeFocused();
      expect(submits).toBe(0);

      // From the review, sending is one action; the receipt is the record of it.
      await reviewAndSend(page);
      expect(submits).toBe(1);
      await expect(page).toHaveTitle(`Check-in recorded – ${DEMO_ORG_NAME} – Co-op check-in`);
      const receipt = page.locator('app-check-in-confirmation');
      await expect(receipt).toContainText(/Your reference CI-\d+/);
      await expect(receipt).toContainText(`Recorded for ${DEMO_ORG_NAME} on`);
      await expect(receipt.locator('[data-field="Store_size_sqft"]')).toContainText('6,500');
      await expect(receipt.locator('[data-field="Certificate_of_Incorporation"]')).toContainText('Removed');
      await expect(receipt.getByRole('heading', { name: 'What happens next' })).toBeVisible();
      await expect(receipt).toContainText('contact Sam Rivera at sam@example.org');
      await expect(receipt.getByRole('link', { name: 'See your check-in history' })).toHaveAttribute(
        'href',
        `/report?${LINK_QUERY}`,
      );
      await expect(receipt.getByRole('button', { name: 'Start another check-in' })).toBeVisible();
      await expectNoAxeViolations(page);
    });

    test('5: errors name nothing technical, say who to contact and why an answer was refused', async ({
      page,
    }) => {
      // An expired or wrong link: who to ask, and for what.
      await page.goto(`${service.url}/?contactId=${DEMO_PERSON_ID}&cid=${DEMO_PERSON_ID}&cs=wrong`);
      const problem = page.getByRole('alert');
      await expect(problem).toContainText('This link is not valid or has expired');
      await expect(problem).toContainText(
        'contact Sam Rivera at sam@example.org and ask for a new personal link.',
      );
      await expect(problem.getByRole('link', { name: 'sam@example.org' })).toHaveAttribute(
        'href',
        'mailto:sam@example.org',
      );
      await expect(page).toHaveTitle(/^Problem: This link is not valid or has expired/);
      await expectNoAxeViolations(page);

      // The records system is down: no "CRM", a retry, and the contact.
      await page.route('**/api/data*', (route) =>
        route.fulfill({
          status: 502,
          json: { statusCode: 502, code: 'CRM_UNAVAILABLE', message: 'The CRM could not be reached.' },
        }),
      );
      await page.goto(`${service.url}/?${LINK_QUERY}`);
      await expect(page.getByRole('alert')).toContainText('Our records system is not answering right now');
      await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
      expect(await page.locator('main').innerText()).not.toMatch(/\bCRM\b/);
      await page.unroute('**/api/data*');

      // A limited text field counts characters as they are typed.
      await openForm(page);
      const certificateName = page.getByLabel('Name on incorporation certificate');
      await certificateName.fill('Riverbend');
      await expect(certificateName).toHaveAccessibleDescription(/You have 246 characters remaining/);

      // The server's refusal says why, on the field.
      await page.route('**/api/submit', (route) =>
        route.fulfill({
          status: 400,
          json: {
            statusCode: 400,
            code: 'VALIDATION_FAILED',
            message: 'Some answers are not valid: Store_size_sqft.',
            fields: ['Store_size_sqft'],
            reasons: { Store_size_sqft: 'enter 100000 or less.' },
          },
        }),
      );
      await page.getByLabel('Planned sales floor').fill('6500');
      await reviewAndSendExpectingRefusal(page);
      const sqft = page.getByLabel('Planned sales floor');
      await expect(sqft).toHaveAccessibleDescription(/This answer was not accepted: enter 100000 or less\./);
      await expectNoAxeViolations(page);
    });

    test('5: a person with several co-ops and no orgId in the link chooses one by name', async ({ page }) => {
      await page.goto(
        `${service.url}/?contactId=${MULTI_ORG_PERSON_ID}&cid=${MULTI_ORG_PERSON_ID}&cs=${MULTI_ORG_PERSON_CHECKSUM}`,
      );
      await expect(page.getByRole('heading', { name: 'Which co-op is this check-in for?' })).toBeVisible();
      const choices = page.getByRole('alert').getByRole('listitem');
      await expect(choices).toHaveText(['Lakeshore Community Grocery', 'Northside Market Co-op']);
      await expect(page.getByRole('alert')).not.toContainText('orgId');
      await expect(page).toHaveTitle('Choose your co-op – Co-op check-in');
      await expectNoAxeViolations(page);

      await page.getByRole('link', { name: 'Northside Market Co-op' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Northside Market Co-op');
      await expect(page.getByRole('heading', { name: 'Your co-op', level: 2 })).toBeVisible();
    });

    test('6: staff page: names the organization, keeps focus after a wrong key, says an organization is unknown, shows the strip scrolls, hides the organization Stage', async ({
      page,
    }) => {
      await page.goto(`${service.url}/staff?orgId=${DEMO_ORG_ID}`);
      await expect(page.locator('form')).toContainText(`open the report for organization ${DEMO_ORG_ID}`);
      const keyField = page.getByLabel('Staff key');
      await keyField.fill('not-the-staff-key');
      await keyField.press('Enter');
      await expect(page.getByRole('alert')).toContainText('was not accepted');
      await expect(page.getByLabel('Staff key')).toBeFocused();
      await expect(page.getByLabel('Staff key')).toHaveAccessibleDescription(/was not accepted/);
      await expectNoAxeViolations(page);

      await page.getByLabel('Staff key').fill('demo');
      await page.getByRole('button', { name: 'Open the report' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(DEMO_ORG_NAME);
      // The organization's own Stage ("Open" in the demo) never sits beside the derived stage.
      const labels = await page
        .locator('app-staff-section')
        .first()
        .locator('dt')
        .evaluateAll((terms) => terms.map((term) => term.firstChild?.textContent?.trim()));
      expect(labels).toContain('Equity share price');
      expect(labels).not.toContain('Stage');
      const strip = page.locator('app-section-chips');
      const overflows = await strip.locator('ul').evaluate((list) => list.scrollWidth > list.clientWidth);
      if (overflows) {
        await expect(strip).toHaveClass(/more-after/);
        await strip.locator('ul').evaluate((list) => list.scrollTo({ left: list.scrollWidth }));
        await expect(strip).toHaveClass(/more-before/);
        await expect(strip).not.toHaveClass(/more-after/);
      } else {
        await expect(strip).not.toHaveClass(/more-(before|after)/);
      }
      // Seven chips never fit a phone: the strip must say that it scrolls there.
      if (viewport.width < 800) expect(overflows).toBe(true);

      await page.goto(`${service.url}/staff?orgId=999999`);
      await expect(page.getByRole('alert')).toContainText('There is no organization with id 999999');
      await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
      await expectNoAxeViolations(page);
    });

    async function reviewAndSendExpectingRefusal(page: Page): Promise<void> {
      await page.getByRole('button', { name: 'Review and send' }).click();
      await page.getByRole('button', { name: 'Send check-in' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'There is a problem' })).toBeFocused();
    }

    test('6: typing during the draft offer is kept; discarding can be undone; focus is never dropped', async ({
      page,
    }) => {
      // A draft from an earlier visit.
      await page.goto(`${service.url}/not-a-page`);
      await page.evaluate(
        ([key, draft]) => window.localStorage.setItem(key, draft),
        [
          DRAFT_KEY,
          JSON.stringify({
            savedAt: new Date().toISOString(),
            values: { Equity_share: '300', Store_size_sqft: '5000' },
          }),
        ],
      );
      await openForm(page);
      await expect(page.getByRole('heading', { name: 'You have an unsent draft' })).toBeVisible();
      await page.getByLabel('Equity share price').fill('999');
      await page.getByRole('button', { name: 'Restore draft' }).click();
      await expect(page.getByLabel('Equity share price')).toHaveValue('999');
      await expect(page.getByLabel('Planned sales floor')).toHaveValue('5000');
      const notice = page.locator('.draft-notice');
      await expect(notice).toContainText(
        'Answers you changed since opening the page were kept: Equity share price.',
      );
      await expect(notice).toBeFocused();

      // One clock style: the draft's time reads like the receipt's (the browser's locale).
      await expect(page.getByRole('status').filter({ hasText: /^Draft saved / })).toHaveText(
        /^Draft saved \d{1,2}:\d{2}\s(AM|PM)$/,
      );

      // Discard, then undo it.
      await page.reload();
      await page.getByRole('button', { name: 'Discard draft' }).click();
      await expect(page.getByLabel('Planned sales floor')).toHaveValue('4200');
      await page.getByRole('button', { name: 'Undo discard' }).click();
      await expect(page.getByLabel('Planned sales floor')).toHaveValue('5000');
      await expect(page.getByLabel('Equity share price')).toHaveValue('999');
      await expectNoAxeViolations(page);

      // Cancelling a replacement upload puts focus back on Replace, not the body.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/upload', async (route) => {
        await held;
        // The page cancelled the request itself, so the route is usually gone already.
        await route.abort().catch(() => undefined);
      });
      // As after pressing Replace: the system file dialog itself cannot be driven headless.
      await page.getByRole('button', { name: 'Replace Certificate of incorporation' }).focus();
      await page.getByLabel('Certificate of incorporation').setInputFiles({
        name: 'new-certificate.pdf',
        mimeType: 'application/pdf',
        buffer: PDF,
      });
      const cancel = page.getByRole('button', { name: 'Cancel upload of new-certificate.pdf' });
      await expect(cancel).toBeFocused();
      await cancel.click();
      await expect(page.getByRole('button', { name: 'Replace Certificate of incorporation' })).toBeFocused();
      release();
      await page.unroute('**/api/upload');

      // The unit box is drawn beneath the focused field, so it never covers the focus ring.
      const sqft = page.getByLabel('Planned sales floor');
      await sqft.focus();
      const stacking = await sqft.evaluate((input) => {
        const unit = input.parentElement?.querySelector('.affix');
        return unit ? [getComputedStyle(input).zIndex, getComputedStyle(unit).zIndex] : [];
      });
      expect(stacking).toEqual(['1', 'auto']);

      // From the receipt to the report: focus lands in the new page's main region.
      await reviewAndSend(page);
      await expect(page.locator('app-check-in-confirmation time')).toHaveText(/\d{1,2}:\d{2}\s(AM|PM)$/);
      await page.getByRole('link', { name: 'See your check-in history' }).click();
      await expect(page).toHaveURL(/\/report\?/);
      await expect.poll(() => focusIsInMain(page)).toBe(true);
    });
  });
}
