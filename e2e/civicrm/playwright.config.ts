import { defineConfig } from '@playwright/test';
import base from '../playwright.config';

/**
 * The Chromium journey against a real CiviCRM: run by tools/civicrm/real-suite.mjs, which starts
 * and sets up the CiviCRM and passes it in the environment (CIVICRM_URL and friends).
 */
export default defineConfig({
  ...base,
  testDir: '.',
  outputDir: '../../dist/e2e/civicrm-test-results',
  reporter: [
    ['list'],
    [
      'json',
      { outputFile: process.env['PLAYWRIGHT_JSON_OUTPUT_NAME'] ?? '../../dist/e2e/civicrm-results.json' },
    ],
  ],
  projects: [{ name: 'civicrm', testDir: '.' }],
});
