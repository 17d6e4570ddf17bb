import type { CiviCrmVersion } from '../../index';
import type { ContractZone } from './contract-site';

/**
 * The contract flow's digests (civicrm-contract.spec.ts) as measured on real CiviCRM 6.14 and
 * 5.81.1; the emulator must give the same.
 */

/** The dates the flow's three inputs become in each zone (what strtotime makes of them). */
export const DATES = {
  UTC: ['20260101080000', '20260101100000', '19700101000000'],
  'America/Chicago': ['20260101020000', '20260101100000', '19691231180000'],
} as const satisfies Record<ContractZone, readonly string[]>;

const BASE_EXPECTED = {
  'option weights after moving C to 3': ['A1', 'B2', 'C3'],
  'option group name from title': 'G_x_',
  'custom group table': true,
  'unknown param and action': [
    500,
    'Unknown api parameter: setSequential',
    500,
    'Api Activity frobnicate version 4 does not exist.',
  ],
  checksums: [true, 200, [{ valid: true }]],
  'CheckinMiddleware.info': [
    500,
    'API (CheckinMiddleware, info) does not exist (or the extension it belongs to is not enabled).',
  ],
  'group name munged': true,
  'field name from label': 'Some_label_x',
  'option weights': [2, 3, 1],
  'Activity.create date shape': true,
  'unknown where field': [500, "Invalid field 'nonsense'"],
  batch: {
    mixed: [200, 'application/json', ['person', 'invalid', 'missing', 'count']],
    person: { values: [{ id: 'PERSON', first_name: 'Probe' }], entity: 'Contact', action: 'get', count: 1 },
    invalid: { error_message: "Invalid field 'nonsense'", status: 500 },
    missing: {
      error_message: 'API (Nope, get) does not exist (or the extension it belongs to is not enabled).',
      status: 500,
    },
    'all failing': [500, ['invalid']],
    GET: 405,
  },
  'target join': { 'list: count, same order': [4, true], 'newest with a value: same': [1, true] },
  'join alias': {
    dotted: [500, 'Illegal join alias: "file_G.Doc"'],
    'hyphen, 256 long': [200, 1],
    '257 long': 500,
  },
  'Int overflow': [500, 'DB Error: unknown error', null, null],
  'batch with writes': {
    'create then get': [
      200,
      ['0:Activity.create', '1:Activity.get'],
      true,
      { count: 1, rows: [{ 'G.Count': '7', subject: 'batched SUFFIX' }] },
    ],
    'refused create then get': [
      200,
      { error_message: 'DB Error: unknown error', status: 500 },
      { count: 1, rows: [{ 'G.Count': 'null', subject: 'batched overflow SUFFIX' }] },
    ],
    'get then update': [200, { count: 1, rows: [{ 'G.Count': '7', subject: 'batched SUFFIX' }] }, 1],
  },
  auth: [200, 0, 403, 401, 'text/plain', 'HTTP 401 Invalid credential'],
  'v3 one id columns': [
    'created_id',
    'description',
    'entity_id',
    'entity_table',
    'icon',
    'id',
    'mime_type',
    'name',
    'upload_date',
    'url',
  ],
  'Activity.create answer': {
    'G.Amount': null,
    'G.Doc': null,
    'G.Ratio': null,
    activity_type_id: 1,
    bogus_field: null,
    check_permissions: null,
    created_date: null,
    custom: null,
    modified_date: null,
    priority_id: 2,
    source_contact_id: null,
    status_id: 2,
    subject: 'probe SUFFIX',
    target_contact_id: null,
  },
};

/** User.login's answer: where the site sends a user who just logged in. */
const loginAnswer = (url: string) => ({
  values: { url },
  entity: 'User',
  action: 'login',
  debug: null,
  version: 4,
  count: 1,
  countFetched: 1,
});

/** The keys File.create answers on both releases. */
const FILE_CREATE_KEYS = [
  'check_permissions',
  'content',
  'created_id',
  'custom',
  'file_name',
  'id',
  'mime_type',
];

/** What Activity.get with joins answers alike on both releases. */
const JOINED_ON_BOTH = {
  source_contact_id: true,
  'src.display_name': 'Probe SUFFIX',
  'G.Amount': 12.35,
  'G.Ratio': 3.1415926535898,
};

export const EXPECTED: Record<CiviCrmVersion, Record<string, unknown>> = {
  '6.14': {
    ...BASE_EXPECTED,
    // 6.14 names the file on disk and stamps the upload; 5.81's File.create does neither.
    'File.create answer keys': [...FILE_CREATE_KEYS, 'upload_date', 'uri'],
    'File.get file_name': 'market_study_1.pdf',
    'File.get uri shape': 'market_study_1_HEX.pdf',
    'File.get url shape': '/civicrm/file?reset=1&id=N&fcs=SIG',
    'Int type error': [500, 'One of the parameters  (value: abc) is not of the type Timestamp', null],
    'unsafe extension uri': 'run_exe_HEX.unknown',
    'old file after replacing': 0,
    'implicit url shape': '/civicrm/file?reset=1&id=N&fcs=SIG',
    'v3 one id url shape': 'BASE/civicrm/file?reset=1&id=N&fcs=JWT',
    'Activity.get with joins': {
      ...JOINED_ON_BOTH,
      'G.Doc.file_name': 'market_study_1.pdf',
      'f.file_name': 'market_study_1.pdf',
    },
    'v3 IN': [500, 'text/html', true, false],
    'v3 unattached': [1, 'Failed to lookup entity table for custom field.'],
    login: loginAnswer('/civicrm/home'),
    'file page': [200, 'download; filename="market_study_1.pdf"', 'aGVsbG8=', 403, 500],
  },
  '5.81': {
    ...BASE_EXPECTED,
    'File.create answer keys': FILE_CREATE_KEYS,
    'File.get file_name': null,
    'File.get uri shape': null,
    'File.get url shape': null,
    // 5.81's message lacks a word; its File.create takes no name, so no uri at all.
    'Int type error': [500, 'One of parameters  (value: abc) is not of the type Timestamp', null],
    'old file after replacing': 1,
    'v3 one id url shape': 'BASE/civicrm/file?reset=1&id=N&eid=E&fcs=HASH',
    // 5.81 stores no file name, so the explicit join reads an empty one and the implicit none.
    'Activity.get with joins': { ...JOINED_ON_BOTH, 'f.file_name': '' },
    'v3 IN': [500, 'text/html', false, true],
    'v3 unattached': [1, 'Failed to match record to related entity'],
    login: loginAnswer('/civicrm'),
  },
};
