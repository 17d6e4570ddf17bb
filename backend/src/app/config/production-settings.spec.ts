import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  findProductionSettingsTable,
  PRODUCTION_SETTINGS,
  renderProductionSettingsTable,
  withProductionSettingsTable,
} from './production-settings';
import { SETTINGS } from './settings';

const GUIDE = join(__dirname, '..', '..', '..', '..', 'docs', 'civicrm-setup.md');

// `npm run docs:settings` sets it to rewrite the guide's table before it is checked.
if (process.env['WRITE_SETTINGS_DOCS'] === 'true') {
  writeFileSync(GUIDE, withProductionSettingsTable(readFileSync(GUIDE, 'utf8')));
}

describe("docs/civicrm-setup.md's production settings", () => {
  it('are rendered from the setting definitions (npm run docs:settings rewrites them)', () => {
    const guide = readFileSync(GUIDE, 'utf8');
    const { start, end } = findProductionSettingsTable(guide);
    expect(guide.slice(start, end).trim()).toBe(renderProductionSettingsTable());
  });

  it('name only declared settings, and mark every one production refuses to start without', () => {
    const declared = new Set<string>(SETTINGS.map((setting) => setting.name));
    for (const { name } of PRODUCTION_SETTINGS) expect(declared.has(name)).toBe(true);
    const required = PRODUCTION_SETTINGS.filter((setting) => setting.required).map((setting) => setting.name);
    expect(required).toEqual([
      'NODE_ENV',
      'PUBLIC_BASE_URL',
      'CRM_BASE_URL',
      'CRM_API_KEY',
      'UPLOAD_RECEIPT_KEY',
    ]);
  });
});
