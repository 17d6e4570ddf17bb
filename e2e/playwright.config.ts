import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../tools/harness/chromium.cjs';

/**
 * End-to-end suites run in Debian's Chromium (tools/harness/chromium.cjs). Each suite starts the
 * servers it needs itself through the harness (e2e/support, tools/harness), on free ports.
 */

export default defineConfig({
  testDir: '.',
  outputDir: '../dist/e2e/test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env['CI'],
  // One retry on CI's loaded 2-core machine; a test that needed it is reported as flaky.
  retries: process.env['CI'] ? 1 : 0,
  reporter: [['list'], ['json', { outputFile: '../dist/e2e/results.json' }]],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_FLAGS],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'links', testDir: './links' },
    { name: 'checkin', testDir: './checkin' },
  ],
});
