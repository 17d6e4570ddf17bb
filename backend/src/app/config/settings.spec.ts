import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REQUIRED_CRM_SETTINGS, SETTINGS } from './settings';
import { findSettingsTable, renderSettingsTable, withSettingsTable } from './settings-table';

const SETTINGS_DOC = join(__dirname, '..', '..', '..', '..', 'docs', 'settings.md');
const REQUIRED_CRM_SETTINGS_JSON = join(__dirname, 'required-crm-settings.json');

// `npm run docs:settings` sets it to rewrite both files from SETTINGS before they are checked.
if (process.env['WRITE_SETTINGS_DOCS'] === 'true') {
  writeFileSync(SETTINGS_DOC, withSettingsTable(readFileSync(SETTINGS_DOC, 'utf8')));
  writeFileSync(
    REQUIRED_CRM_SETTINGS_JSON,
    `[${REQUIRED_CRM_SETTINGS.map((name) => JSON.stringify(name)).join(', ')}]\n`,
  );
}

describe('setting definitions', () => {
  it('declare each setting once', () => {
    const names = SETTINGS.map((setting) => setting.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('are the table in docs/settings.md (npm run docs:settings rewrites it)', () => {
    const readme = readFileSync(SETTINGS_DOC, 'utf8');
    const { start, end } = findSettingsTable(readme);
    expect(readme.slice(start, end)).toBe(renderSettingsTable());
  });

  it('name the CRM settings the production build requires (backend/webpack.config.js reads the JSON)', () => {
    expect(JSON.parse(readFileSync(REQUIRED_CRM_SETTINGS_JSON, 'utf8'))).toEqual(REQUIRED_CRM_SETTINGS);
    expect(REQUIRED_CRM_SETTINGS).toEqual(['CRM_BASE_URL', 'CRM_API_KEY']);
  });

  it('show the real default, also in a Default cell written by hand', () => {
    for (const setting of SETTINGS) {
      if ('default' in setting)
        expect(renderSettingsTable([setting])).toContain(`\`${String(setting.default)}\``);
    }
  });
});
