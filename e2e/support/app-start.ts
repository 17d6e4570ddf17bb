import type { Page } from '@playwright/test';

/**
 * Waits until the app has taken the page over: booted, a rendered page hydrated and the owner's
 * early events replayed (main.ts sets the `checkin:app-stable` mark).
 */
export async function appRunning(page: Page): Promise<void> {
  await page.waitForFunction(() => performance.getEntriesByName('checkin:app-stable').length > 0);
}

/**
 * On a server-rendered owner page the app starts at the owner's first action
 * (docs/performance.md, "The app starts when the owner acts"): a tap on the page's heading, which
 * does nothing else, then the app running.
 */
export async function startTheApp(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).click();
  await appRunning(page);
}
