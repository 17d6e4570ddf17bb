import { SETTINGS, type SettingDefinition } from './settings';

const HEADER = ['Setting', 'Default', 'Meaning'];

/** docs/settings.md: the table of every setting, laid out as prettier lays out Markdown tables. */
export function renderSettingsTable(settings: readonly SettingDefinition[] = SETTINGS): string {
  const rows = settings.map((setting) => [`\`${setting.name}\``, defaultCell(setting), setting.meaning]);
  const widths = HEADER.map((_, column) => Math.max(...[HEADER, ...rows].map((row) => width(row[column]))));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell + ' '.repeat(widths[column] - width(cell))).join(' | ')} |`;
  return [line(HEADER), line(widths.map((size) => '-'.repeat(size))), ...rows.map(line)].join('\n');
}

function defaultCell(setting: SettingDefinition): string {
  if (setting.documentedDefault !== undefined) return setting.documentedDefault;
  return setting.default === undefined ? '—' : `\`${String(setting.default)}\``;
}

function width(cell = ''): number {
  return [...cell].length;
}

/** The settings table in a README's text: from its header line to the first line not in the table. */
export function findSettingsTable(readme: string): { start: number; end: number } {
  const start = readme.indexOf(`| ${HEADER[0]} `);
  if (start < 0) throw new Error('docs/settings.md has no settings table');
  const after = readme.slice(start).search(/\n(?!\|)/);
  return { start, end: after < 0 ? readme.length : start + after };
}

export function withSettingsTable(readme: string, table = renderSettingsTable()): string {
  const { start, end } = findSettingsTable(readme);
  return readme.slice(0, start) + table + readme.slice(end);
}
