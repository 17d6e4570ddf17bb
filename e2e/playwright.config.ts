import { defineConfig } from '@playwright/test';

/**
 * End-to-end suites run in Debian's Chromium (no browser download on this machine or in CI).
 * Each suite starts the servers it needs itself (see e2e/support), on free ports.
 */
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

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
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: chromiumArgs,
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'links', testDir: './links' },
    { name: 'checkin', testDir: './checkin' },
  ],
});
