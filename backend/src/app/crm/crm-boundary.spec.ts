import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * docs/architecture.md, "The crm/ folder": CiviCRM's API is spoken in backend/src/app/crm only
 * (and in the schema installer, backend/src/crm-schema, outside app/). This scan proves it for
 * every other source file of app/; the imports of the client are kept out by
 * `no-restricted-imports` (eslint.config.mjs). Specs are not scanned: a spec that fakes the CRM
 * answers in its terms.
 */
const APP = join(__dirname, '..');

/** What APIv4 looks like in source, each with what it catches. */
export const APIV4_PATTERNS: ReadonlyArray<{ what: string; pattern: RegExp }> = [
  { what: 'a pseudoconstant suffix', pattern: /['"`][a-z_]+(?:\.[a-z_]+)*:(?:name|label)['"`]/ },
  { what: 'an activity contact column', pattern: /\b(?:source|target|assignee)_contact_id\b/ },
  { what: 'an explicit join', pattern: /['"`][A-Z][A-Za-z]+ AS [a-z_]+['"`]/ },
  {
    what: 'an entity and action',
    pattern:
      /['"`](?:Activity|ActivityContact|Contact|CustomField|CustomGroup|OptionValue|OptionGroup|EntityFile|File|Attachment|Relationship|RelationshipType|Setting|Email|CheckinMiddleware)['"`]\s*,\s*['"`](?:get|create|update|delete|save|replace|info|validateChecksum|getChecksum|getFields)['"`]/,
  },
  { what: 'a foreign-key path', pattern: /['"`][a-z_]+_id(?:_[ab])?\.[a-z_]+['"`]/ },
  { what: 'a call of the CRM client', pattern: /\.(?:api4|api3)\s*\(/ },
];

/** Each line of `source` that speaks APIv4, as "line: what". */
export function apiv4Leaks(source: string): string[] {
  return source
    .split('\n')
    .flatMap((line, index) =>
      APIV4_PATTERNS.filter(({ pattern }) => pattern.test(line)).map(({ what }) => `${index + 1}: ${what}`),
    );
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('the CRM boundary', () => {
  it('finds each kind of APIv4 in a planted sample', () => {
    const planted = [
      "values: { 'activity_type_id:name': ACTIVITY_TYPE_NAME,",
      'source_contact_id: personId,',
      "join: [['Contact AS recorder', 'LEFT', 'ActivityContact']],",
      "await crm.api4('CustomField', 'get', params);",
      "select: ['contact_id_a.display_name'],",
    ].join('\n');
    expect(apiv4Leaks(planted)).toEqual([
      '1: a pseudoconstant suffix',
      '2: an activity contact column',
      '3: an explicit join',
      '4: an entity and action',
      '4: a call of the CRM client',
      '5: a foreign-key path',
    ]);
  });

  it('lets the product’s own words through', () => {
    const product = [
      "const HEADER = ['Setting', 'Default', 'Meaning'];",
      "extends: 'Activity',",
      "{ name: 'email', type: 'text', label: 'Email' },",
      'const organization = await this.contacts.readOrganization(orgId, fields);',
      "import { ACTIVITY_STAGE_FIELD } from '../crm/crm-names';",
    ].join('\n');
    expect(apiv4Leaks(product)).toEqual([]);
  });

  it('finds no APIv4 in app/ outside crm/', () => {
    const files = sourceFiles(APP).filter((path) => !relative(APP, path).startsWith('crm/'));
    expect(files.length).toBeGreaterThan(50);
    const leaks = files.flatMap((path) =>
      apiv4Leaks(readFileSync(path, 'utf8')).map((leak) => `${relative(APP, path)}:${leak}`),
    );
    expect(leaks).toEqual([]);
  });
});
