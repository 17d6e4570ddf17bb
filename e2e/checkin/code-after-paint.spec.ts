import { expect, type Route, test } from '@playwright/test';
import { DEMO_CHECKSUM, DEMO_ORG_ID, DEMO_PERSON_ID } from '../../backend/src/app/crm/in-memory/demo-data';
import { type RunningProcess, startService } from '../support/app-server';
import { appRunning } from '../support/app-start';

/**
 * A rendered owner page asks for none of the app's code, main.js included, before its first
 * contentful paint, and holds the form's native submission from its first byte until the app runs
 * (docs/performance.md, "The app starts when the owner acts"). Stub mode; build first:
 * `npx nx run-many -t build -p frontend backend`.
 */
const OWNER_LINK = `contactId=${DEMO_PERSON_ID}&orgId=${DEMO_ORG_ID}&cid=${DEMO_PERSON_ID}&cs=${DEMO_CHECKSUM}`;

let service: RunningProcess;

test.beforeAll(async () => {
  service = await startService();
});

test.afterAll(async () => {
  await service?.stop();
});

for (const path of ['/', '/report']) {
  test(`${path}: no script is requested before the first contentful paint, and main.js comes after it`, async ({
    page,
  }) => {
    const answer = await page.goto(`${service.url}${path}?${OWNER_LINK}`, { waitUntil: 'load' });
    const html = (await answer?.text()) ?? '';
    // The entry is only inside the inert template; the one script outside it is inline, with a nonce.
    const outsideTemplate = html.replace(/<template id="checkin-later-code">[\s\S]*?<\/template>/, '');
    expect(outsideTemplate).not.toMatch(/<script[^>]*\ssrc=/);
    expect(outsideTemplate).not.toContain('modulepreload');
    const timing = await page
      .waitForFunction(() => {
        const paint = performance.getEntriesByName('first-contentful-paint')[0];
        const scripts = performance
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname.endsWith('.js'));
        const main = scripts.find((entry) => /\/main-[\w-]+\.js$/.test(entry.name));
        if (paint === undefined || main === undefined) return null;
        return { paint: paint.startTime, firstScript: Math.min(...scripts.map((entry) => entry.startTime)) };
      })
      .then((handle) => handle.jsonValue());
    expect(timing!.firstScript).toBeGreaterThanOrEqual(timing!.paint);
  });
}

test('Enter in a field before main.js has arrived keeps the page and its link; the app then runs', async ({
  page,
}) => {
  let releaseMain: () => void = () => undefined;
  const mainHeld = new Promise<void>((resolve) => (releaseMain = resolve));
  await page.route(/\/main-[\w-]+\.js$/, async (route: Route) => {
    await mainHeld;
    await route.continue();
  });
  const url = `${service.url}/?${OWNER_LINK}`;
  await page.goto(url, { waitUntil: 'commit' });
  const floor = page.getByLabel('Planned sales floor');
  await expect(floor).toBeEditable();
  await floor.fill('6400');
  await floor.press('Enter');
  await page.getByRole('button', { name: 'Review and send' }).click();
  // A native submission would have left for `/?<answers>`, the owner's link gone.
  await page.waitForTimeout(500);
  expect(page.url()).toBe(url);
  expect(await page.evaluate(() => performance.getEntriesByName('checkin:app-stable').length)).toBe(0);
  releaseMain();
  await appRunning(page);
  await expect(page.getByRole('button', { name: 'Send check-in' })).toBeVisible();
  expect(page.url()).toBe(url);
});
