import { expect, type Route, test } from '@playwright/test';
import { DEMO_ORG_ID, DEMO_ORG_NAME, DEMO_PERSON_ID } from '../../backend/src/app/crm/in-memory/demo-data';
import { FORM_ID } from '../../libs/contract/src';
import { appRunning, startTheApp } from '../support/app-start';
import { OWNER_LINK, useBuiltService } from './suite-service';

/**
 * The form before its code has run (docs/performance.md, "Server-rendered owner pages" and "The
 * app starts when the owner acts"): the service sends it rendered with the owner's data, so its
 * fields can be read and typed in at once; the app's code is fetched once the page has loaded and
 * runs at the owner's first action; what the owner types or sends before Angular has taken the
 * page over is kept and reaches the form (event replay). Stub mode; build first:
 * `npx nx run-many -t build -p frontend backend`.
 */
const TYPED = ' (typed before the code ran)';

const service = useBuiltService();

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

/** The chunks the service names for later inside a rendered page (its inert template). */
function laterCode(html: string): string[] {
  const template = /<template id="checkin-later-code">([\s\S]*?)<\/template>/.exec(html)?.[1] ?? '';
  return [...template.matchAll(/href="([^"]+)"/g)].map(([, href]) => href);
}

test('a rendered page runs none of the app until the owner acts; its code arrives after the page, once', async ({
  page,
}) => {
  const requests: string[] = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  const answer = await page.goto(`${service.url}/?${OWNER_LINK}`, { waitUntil: 'load' });
  const chunks = laterCode((await answer?.text()) ?? '');
  expect(chunks.length).toBeGreaterThan(0);
  // Fetched once the page has loaded (resource timing), without running: no app yet.
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name)))
    .toEqual(expect.arrayContaining(chunks.map((chunk) => `${service.url}${chunk}`)));
  const timing = await page.evaluate((names) => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    const starts = performance
      .getEntriesByType('resource')
      .filter((entry) => names.includes(new URL(entry.name).pathname))
      .map((entry) => entry.startTime);
    return { loaded: navigation!.loadEventStart, firstCode: Math.min(...starts) };
  }, chunks);
  expect(timing.firstCode).toBeGreaterThanOrEqual(timing.loaded);
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => performance.getEntriesByName('checkin:app-stable').length)).toBe(0);

  // The owner's first action starts it, with the code already there: nothing is fetched twice,
  // and the data stays the page's own.
  await startTheApp(page);
  for (const chunk of chunks) expect(requests.filter((path) => path === chunk)).toHaveLength(1);
  expect(requests.filter((path) => path.startsWith('/api/'))).toEqual([]);
});

test('“Review and send” before the app runs keeps the page and its link, and opens the review once it runs', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const url = `${service.url}/?${OWNER_LINK}`;
  // The app's code is held back (a slow line): the owner acts before it can run.
  let releaseCode: () => void = () => undefined;
  const codeHeld = new Promise<void>((resolve) => (releaseCode = resolve));
  const answer = await page.goto(url);
  const chunks = laterCode((await answer?.text()) ?? '');
  await page.route(
    (requested) => chunks.includes(requested.pathname),
    async (route: Route) => {
      await codeHeld;
      await route.continue();
    },
  );
  // (Routing turns the browser's cache off: the reload fetches the code again, and waits.)
  await page.reload({ waitUntil: 'commit' });
  const floor = page.getByLabel('Planned sales floor');
  await expect(floor).toBeEditable();
  await floor.fill('6400');
  await page.getByRole('button', { name: 'Review and send' }).click();
  // A native submission would have left for `/?<answers>`, the owner's link gone.
  await page.waitForTimeout(500);
  expect(page.url()).toBe(url);
  await expect(page.getByRole('button', { name: 'Send check-in' })).toHaveCount(0);

  releaseCode();
  await appRunning(page);
  await expect(page.getByRole('button', { name: 'Send check-in' })).toBeVisible();
  await expect(floor).toHaveValue('6400');
  expect(page.url()).toBe(url);
  expect(errors).toEqual([]);
});
