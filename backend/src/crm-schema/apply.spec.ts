import type { Api4Params, CrmClient, CrmRow } from '../app/crm/crm-client';
import { CIVICRM_CHECKSUM_SHAPE } from '../app/crm/crm-client';
import { applyChanges, resolveRefs } from './apply';
import type { Change } from './plan';
import { exitCodeOf } from './report';
import { parseSchemaArgs } from '../crm-schema.main';

describe('applying a plan', () => {
  it('resolves references from earlier answers, at any depth', () => {
    const answers = new Map<string, CrmRow>([['activityType', { id: 7, value: '56' }]]);
    expect(resolveRefs({ values: { a: [{ $ref: 'activityType', field: 'value' }], b: 1 } }, answers)).toEqual(
      {
        values: { a: ['56'], b: 1 },
      },
    );
    expect(() => resolveRefs({ $ref: 'group:x', field: 'id' }, answers)).toThrow(
      /group:x\.id was not created/,
    );
  });

  it('runs changes in order and stops at the first failure, saying how many were done', async () => {
    const calls: string[] = [];
    const crm: CrmClient = {
      fileBaseUrl: null,
      checksumShape: CIVICRM_CHECKSUM_SHAPE,
      api4: async <T extends CrmRow = CrmRow>(entity: string, action: string, params?: Api4Params) => {
        calls.push(`${entity}.${action} ${JSON.stringify(params)}`);
        if (entity === 'CustomField') throw new Error('HTTP 500');
        return [{ id: 42, value: '56' }] as CrmRow[] as T[];
      },
      api3: async () => [],
      createFile: async () => [],
      batch: async () => ({}),
    };
    const changes: Change[] = [
      {
        action: 'create',
        entity: 'OptionValue',
        summary: 'type',
        details: [],
        params: { values: {} },
        ref: 'activityType',
      },
      {
        action: 'create',
        entity: 'CustomGroup',
        summary: 'group',
        details: [],
        params: { values: { x: { $ref: 'activityType', field: 'value' } } },
        ref: 'group:activity',
      },
      {
        action: 'create',
        entity: 'CustomField',
        summary: 'field',
        details: [],
        params: { values: { g: { $ref: 'group:activity', field: 'id' } } },
      },
      { action: 'create', entity: 'RelationshipType', summary: 'never', details: [], params: {} },
    ];
    await expect(applyChanges(crm, changes)).rejects.toMatchObject({ done: 2, message: 'field: HTTP 500' });
    expect(calls).toEqual([
      'OptionValue.create {"values":{}}',
      'CustomGroup.create {"values":{"x":"56"}}',
      'CustomField.create {"values":{"g":42}}',
    ]);
  });
});

describe('command line', () => {
  it('is a dry run unless --apply is given, and refuses unknown arguments', () => {
    expect(parseSchemaArgs([])).toEqual({ mode: 'dry-run', json: false, help: false });
    expect(parseSchemaArgs(['--apply', '--json'])).toEqual({ mode: 'apply', json: true, help: false });
    expect(() => parseSchemaArgs(['--aply'])).toThrow(/--aply/);
  });

  it('exits 0 with nothing to do, 2 when a dry run finds changes, 1 when an apply leaves some', () => {
    expect(exitCodeOf('up-to-date')).toBe(0);
    expect(exitCodeOf('applied')).toBe(0);
    expect(exitCodeOf('changes-needed')).toBe(2);
    expect(exitCodeOf('incomplete')).toBe(1);
  });
});
