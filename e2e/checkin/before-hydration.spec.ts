import { expect, type Route, test } from '@playwright/test';
import {
  DEMO_CHECKSUM,
  DEMO_ORG_ID,
  DEMO_ORG_NAME,
  DEMO_PERSON_ID,
} from '../../backend/src/app/crm/in-memory/demo-data';
import { FORM_ID } from '../../libs/contract/src';
import { type RunningProcess, startService } from '../support/app-server';

/**
 * The form before its code has run (docs/performance.md, "Server-rendered owner pages"): the
 * service sends it rendered with the owner's data, so its fields can be read and typed in at
 * once; what the owner types before Angular has taken the page over is kept and reaches the form
 * (event replay). Stub mode; build first: `npx nx run-many -t build -p frontend backend`.
 */
const OWNER_LINK = `contactId=${DEMO_PERSON_ID}&orgId=${DEMO_ORG_ID}&cid=${DEMO_PERSON_ID}&cs=${DEMO_CHECKSUM}`;
const TYPED = ' (typed before the code ran)';

let service: RunningProcess;

test.beforeAll(async () => {
  service = await startService();
});

test.afterAll(async () => {
  await service?.stop();
});

test('without JavaScript the form is there with the owner’s answers, and its fields take input', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${service.url}/?${OWNER_LINK}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(DEMO_ORG_NAME);
  const field = page.locator('input[type="text"]:visible').first();
  await expect(field).toBeEditable();
  const prefilled = await field.inputValue();
  expect(prefilled).not.toBe('');
  await field.click();
  await page.keyboard.press('End');
  await page.keyboard.type(TYPED);
  await expect(field).toHaveValue(`${prefilled}${TYPED}`);
  await context.close();
});

test('what the owner types before the page’s code has run survives hydration and reaches the form', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  // Hold the app's entry script until the owner has typed: nothing of Angular runs before.
  let releaseMain: () => void = () => undefined;
  const mainHeld = new Promise<void>((resolve) => (releaseMain = resolve));
  let mainRequested = false;
  await page.route(/\/main-[A-Z0-9]+\.js$/, async (route: Route) => {
    mainRequested = true;
    await mainHeld;
    await route.continue();
  });

  await page.goto(`${service.url}/?${OWNER_LINK}`, { waitUntil: 'commit' });
  const field = page.locator('input[type="text"]:visible').first();
  await expect(field).toBeEditable();
  const fieldId = await field.getAttribute('id');
  const prefilled = await field.inputValue();
  await field.click();
  await page.keyboard.press('End');
  await page.keyboard.type(TYPED);
  await expect(field).toHaveValue(`${prefilled}${TYPED}`);
  // Angular has not run yet: no draft status, the entry script still held.
  expect(mainRequested).toBe(true);
  await expect(page.locator('.draft-status')).toHaveText('');

  releaseMain();
  // The replayed input reached the form: it saved a draft of the typed answer.
  await expect(page.locator('.draft-status')).toContainText('Draft saved');
  const sameField = page.locator(`#${fieldId}`);
  await expect(sameField).toHaveValue(`${prefilled}${TYPED}`);
  const draft = await page.evaluate(
    (key) => localStorage.getItem(key),
    `${FORM_ID}:${DEMO_PERSON_ID}:${DEMO_ORG_ID}`,
  );
  expect(draft).toContain(TYPED);
  expect(errors).toEqual([]);
});
