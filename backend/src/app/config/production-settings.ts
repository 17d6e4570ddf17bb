import { SETTINGS, type SettingDefinition } from './settings';
import { renderSettingsTable } from './settings-table';

/**
 * The settings a production deployment sets, with why (docs/civicrm-setup.md, "Configure the
 * service"). `required`: the service refuses to start without it in production; the others are
 * needed for a deployment that works as the guide describes. Meanings and defaults come from
 * SETTINGS, so the guide's table cannot drift from the service.
 */
export const PRODUCTION_SETTINGS: ReadonlyArray<{ name: string; required: boolean }> = [
  { name: 'NODE_ENV', required: true },
  { name: 'PORT', required: false },
  { name: 'HOST', required: false },
  { name: 'PUBLIC_BASE_URL', required: true },
  { name: 'CRM_BASE_URL', required: true },
  { name: 'CRM_API_KEY', required: true },
  { name: 'CRM_ACTIVITY_CUSTOM_GROUP', required: false },
  { name: 'CRM_CONTACT_CUSTOM_GROUP', required: false },
  { name: 'CRM_FILE_ROUTE', required: false },
  { name: 'CRM_TIMEZONE', required: false },
  { name: 'STAFF_REPORT_KEY', required: false },
  { name: 'ADMIN_KEY', required: false },
  { name: 'UPLOAD_RECEIPT_KEY', required: true },
  { name: 'ORGANIZER_NAME', required: false },
  { name: 'ORGANIZER_EMAIL', required: false },
  { name: 'TRUST_PROXY_HOPS', required: false },
  { name: 'THROTTLE_REDIS_URL', required: false },
];

const START = '<!-- production-settings:start (npm run docs:settings writes this table) -->';
const END = '<!-- production-settings:end -->';

/** The guide's table: SETTINGS' rows for PRODUCTION_SETTINGS, required ones marked. */
export function renderProductionSettingsTable(): string {
  const byName = new Map<string, SettingDefinition>(SETTINGS.map((setting) => [setting.name, setting]));
  const rows = PRODUCTION_SETTINGS.map(({ name, required }) => {
    const setting = byName.get(name);
    if (!setting) throw new Error(`PRODUCTION_SETTINGS names an unknown setting ${name}`);
    return required ? { ...setting, meaning: `**required in production.** ${setting.meaning}` } : setting;
  });
  return renderSettingsTable(rows);
}

export function withProductionSettingsTable(guide: string, table = renderProductionSettingsTable()): string {
  const { start, end } = findProductionSettingsTable(guide);
  // Blank lines around the table, as Prettier writes them.
  return `${guide.slice(0, start)}\n\n${table}\n\n${guide.slice(end)}`;
}

/** Where the table sits: between its two markers (exclusive). */
export function findProductionSettingsTable(guide: string): { start: number; end: number } {
  const start = guide.indexOf(START);
  const end = guide.indexOf(END);
  if (start < 0 || end < start) throw new Error('docs/civicrm-setup.md has no production settings markers');
  return { start: start + START.length, end };
}

export const PRODUCTION_SETTINGS_MARKERS = { START, END };
