import { randomBytes } from 'node:crypto';
import { CiviCrmModel, type CiviCrmVersion } from '../../index';
import { CiviCrmEmulator } from './civicrm-emulator';
import { DEFAULT_EMULATOR_LOGIN } from './emulator-types';

/**
 * Contract scenarios: one flow of calls whose answers are reduced to a digest (what the service
 * depends on, with ids, dates and signatures replaced by what they must be). The emulator must
 * give the digests measured on real CiviCRM 6.14 and 5.81.1, written below.
 *
 * The same flow runs against real CiviCRMs when CIVICRM_CONTRACT_TARGETS names them, e.g.
 *   CIVICRM_CONTRACT_TARGETS=6.14=http://127.0.0.1:8400,5.81=http://127.0.0.1:8410
 *   CIVICRM_CONTRACT_API_KEY=<admin key>  CIVICRM_CONTRACT_LOGIN=admin:<password>
 * so the expectations cannot drift from the real thing. The flow creates its own throwaway
 * records there (a custom group on activities, contacts, files), named with a random suffix.
 */

/** The zones whose dates the flow knows (what strtotime makes of its three inputs). */
const DATES = {
  UTC: ['20260101080000', '20260101100000', '19700101000000'],
  'America/Chicago': ['20260101020000', '20260101100000', '19691231180000'],
} as const;
type Zone = keyof typeof DATES;

interface Target {
  label: string;
  version: CiviCrmVersion;
  /** The CiviCRM's time zone (PHP's date.timezone). */
  timeZone: Zone;
  baseUrl: string;
  apiKey: string;
  login: { username: string; password: string };
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** The session cookie a login set (`name=value`), if any. */
  cookie: string;
}

const API_KEY = 'contract-api-key';

async function call(
  target: Target,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = { 'X-Civi-Auth': `Bearer ${target.apiKey}` },
): Promise<Answer> {
  const response = await fetch(`${target.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'X-Requested-With': 'XMLHttpRequest', ...headers },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
  return {
    status: response.status,
    contentType: (response.headers.get('content-type') ?? '').split(';')[0] ?? '',
    text: await response.text(),
    cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
  };
}

type Row = Record<string, unknown>;

async function api4(
  target: Target,
  entity: string,
  action: string,
  params: unknown,
  headers?: Record<string, string>,
): Promise<{ status: number; rows: Row[]; error?: string; answer: Answer }> {
  const answer = await call(
    target,
    `/civicrm/ajax/api4/${entity}/${action}`,
    { params: JSON.stringify(params) },
    headers,
  );
  let body: { values?: Row[]; error_message?: string } = {};
  try {
    body = JSON.parse(answer.text) as typeof body;
  } catch {
    // Not JSON: the digest records the status and content type.
  }
  return {
    status: answer.status,
    rows: Array.isArray(body.values) ? body.values : [],
    ...(body.error_message === undefined ? {} : { error: body.error_message }),
    answer,
  };
}

/**
 * APIv4's batch endpoint as the service sends it (POST civicrm/ajax/api4, form field `calls`):
 * each call's answer under its name, in the order sent, a failing call failing alone; the
 * request's status is 200 when one call worked, the error's when none did; GET is refused.
 */
async function batchAnswers(target: Target, personId: unknown): Promise<unknown> {
  const send = (calls: unknown) => call(target, '/civicrm/ajax/api4', { calls: JSON.stringify(calls) });
  const sendByGet = async (calls: unknown) => {
    const query = new URLSearchParams({ calls: JSON.stringify(calls) });
    const response = await fetch(`${target.baseUrl}/civicrm/ajax/api4?${query.toString()}`, {
      headers: { 'X-Civi-Auth': `Bearer ${target.apiKey}`, 'X-Requested-With': 'XMLHttpRequest' },
    });
    await response.body?.cancel();
    return response.status;
  };
  const shape = (answer: unknown): unknown => {
    if (typeof answer !== 'object' || answer === null) return answer;
    const envelope = answer as Row;
    if ('values' in envelope) {
      const rows = Array.isArray(envelope['values']) ? (envelope['values'] as Row[]) : [];
      return {
        values: rows.map((row) => ({ ...row, id: row['id'] === personId ? 'PERSON' : row['id'] })),
        entity: envelope['entity'],
        action: envelope['action'],
        count: envelope['count'],
      };
    }
    return { error_message: envelope['error_message'], status: envelope['status'] };
  };
  const mixed = await send({
    person: ['Contact', 'get', { select: ['id', 'first_name'], where: [['id', '=', personId]] }],
    invalid: ['Contact', 'get', { where: [['nonsense', '=', 1]] }],
    missing: ['Nope', 'get', {}],
    count: ['Contact', 'get', { select: ['id'], where: [['id', '=', personId]], limit: 1 }],
  });
  const body = JSON.parse(mixed.text) as Record<string, unknown>;
  const failing = await send({ invalid: ['Contact', 'get', { where: [['nonsense', '=', 1]] }] });
  const byGet = await sendByGet({ person: ['Contact', 'get', { select: ['id'] }] });
  return {
    mixed: [mixed.status, mixed.contentType, Object.keys(body)],
    person: shape(body['person']),
    invalid: shape(body['invalid']),
    missing: shape(body['missing']),
    'all failing': [failing.status, Object.keys(JSON.parse(failing.text) as object)],
    GET: byGet,
  };
}

/**
 * Which explicit-join aliases CiviCRM takes (Api4SelectQuery::addExplicitJoins): 1 to 256 word
 * characters or hyphens; anything else, such as the dot of a custom field's name, is refused.
 */
async function joinAliasRule(target: Target, G: string, activityId: unknown): Promise<unknown> {
  const withAlias = async (alias: string) => {
    const answer = await api4(target, 'Activity', 'get', {
      select: ['id'],
      join: [[`File AS ${alias}`, 'LEFT', [`${G}.Doc`, '=', `${alias}.id`]]],
      where: [['id', '=', activityId]],
    });
    return [answer.status, answer.error ?? answer.rows.length];
  };
  const long = `f${'x'.repeat(255)}`;
  return {
    dotted: await withAlias('file_G.Doc'),
    'hyphen, 256 long': await withAlias(`f-${long.slice(2)}`),
    '257 long': (await withAlias(`${long}y`))[0],
  };
}

/**
 * The organization filter the service sends (an INNER join on ActivityContact limited to
 * targets) must answer the rows `target_contact_id CONTAINS` answers, in the same order: ties on
 * the date, the organization as source or assignee only, several targets, another organization.
 */
async function targetJoinAgainstContains(target: Target, G: string, personId: unknown): Promise<unknown> {
  const one = async (entity: string, values: Row) =>
    (await api4(target, entity, 'create', { values })).rows[0] ?? {};
  const org = await one('Contact', { contact_type: 'Organization', organization_name: 'Join probe A' });
  const other = await one('Contact', { contact_type: 'Organization', organization_name: 'Join probe B' });
  const activity = (date: string, roles: Row, count?: number) =>
    one('Activity', {
      activity_type_id: 1,
      source_contact_id: personId,
      activity_date_time: date,
      ...roles,
      ...(count === undefined ? {} : { [`${G}.Count`]: count }),
    });
  await activity('2025-03-01 10:00:00', { target_contact_id: [org['id']] }, 1);
  await activity('2025-03-01 10:00:00', { target_contact_id: [org['id']] });
  await activity('2025-05-01 09:00:00', { target_contact_id: [other['id'], org['id']] }, 2);
  await activity('2025-06-01 09:00:00', { target_contact_id: [other['id']] }, 3);
  await activity(
    '2025-07-01 09:00:00',
    { assignee_contact_id: [org['id']], target_contact_id: [personId] },
    4,
  );
  await activity('2025-08-01 09:00:00', { source_contact_id: org['id'], target_contact_id: [personId] }, 5);
  await activity('2025-02-01 09:00:00', { target_contact_id: [org['id']] }, 6);
  const byContains = (extra: Row = {}, where: unknown[] = []) =>
    api4(target, 'Activity', 'get', {
      select: ['id'],
      where: [['target_contact_id', 'CONTAINS', org['id']], ...where],
      orderBy: { activity_date_time: 'DESC', id: 'DESC' },
      ...extra,
    });
  const byJoin = (extra: Row = {}, where: unknown[] = []) =>
    api4(target, 'Activity', 'get', {
      select: ['id'],
      join: [
        [
          'ActivityContact AS tgt',
          'INNER',
          ['tgt.activity_id', '=', 'id'],
          ['tgt.record_type_id:name', '=', '"Activity Targets"'],
        ],
      ],
      where: [['tgt.contact_id', '=', org['id']], ...where],
      orderBy: { activity_date_time: 'DESC', id: 'DESC' },
      ...extra,
    });
  const ids = (answer: { rows: Row[] }) => answer.rows.map((row) => row['id']);
  const list = [ids(await byContains()), ids(await byJoin())];
  const stage = { limit: 1 };
  const stageWhere = [[`${G}.Count`, 'IS NOT EMPTY']];
  const newest = [ids(await byContains(stage, stageWhere)), ids(await byJoin(stage, stageWhere))];
  return {
    'list: count, same order': [list[1]?.length, JSON.stringify(list[0]) === JSON.stringify(list[1])],
    'newest with a value: same': [newest[1]?.length, JSON.stringify(newest[0]) === JSON.stringify(newest[1])],
  };
}

/** Runs the flow and reduces every answer to what must not differ between CiviCRMs. */
async function runScenarios(target: Target): Promise<Record<string, unknown>> {
  const suffix = randomBytes(4).toString('hex');
  const digest: Record<string, unknown> = {};
  const one = async (entity: string, action: string, params: unknown) =>
    (await api4(target, entity, action, params)).rows[0] ?? {};

  // Names: CustomGroup munges, CustomField keeps a given name.
  const group = await one('CustomGroup', 'create', {
    values: { name: `Probe__${suffix}`, title: `Probe ${suffix}`, extends: 'Activity' },
  });
  digest['group name munged'] = group['name'] === `Probe_${suffix}`;
  const G = String(group['name']);
  const field = async (name: string, dataType: string, extra: Row = {}) =>
    one('CustomField', 'create', {
      values: {
        custom_group_id: group['id'],
        name,
        label: name,
        data_type: dataType,
        html_type: 'Text',
        ...extra,
      },
    });
  await field('Count', 'Int');
  await field('Amount', 'Money');
  await field('Ratio', 'Float');
  await field('Doc', 'File', { html_type: 'File' });
  const derived = await one('CustomField', 'create', {
    values: {
      custom_group_id: group['id'],
      label: 'Some  label / x',
      data_type: 'String',
      html_type: 'Text',
    },
  });
  digest['field name from label'] = derived['name'];

  // Weights: capped at the highest + 1.
  const options = await one('OptionGroup', 'create', { values: { name: `probe_${suffix}`, title: 'Probe' } });
  const weights: unknown[] = [];
  for (const [label, weight] of [
    ['A', 10],
    ['B', 20],
    ['C', 1],
  ] as const) {
    const option = await one('OptionValue', 'create', {
      values: { option_group_id: options['id'], label, value: label.toLowerCase(), weight },
    });
    weights.push(option['weight']);
  }
  digest['option weights'] = weights;
  await api4(target, 'OptionValue', 'update', {
    values: { weight: 3 },
    where: [
      ['option_group_id', '=', options['id']],
      ['label', '=', 'C'],
    ],
  });
  const reordered = (
    await api4(target, 'OptionValue', 'get', {
      select: ['label', 'weight'],
      where: [['option_group_id', '=', options['id']]],
      orderBy: { weight: 'ASC' },
    })
  ).rows;
  digest['option weights after moving C to 3'] = reordered.map(
    (row) => `${String(row['label'])}${String(row['weight'])}`,
  );
  const titled = await one('OptionGroup', 'create', { values: { title: `Probe ${suffix} (x)!` } });
  digest['option group name from title'] = titled['name'];
  // The title munged and cut to 13 characters, then the group's id.
  digest['custom group table'] =
    String(group['table_name']) === `civicrm_value_probe_${suffix.slice(0, 7)}_${String(group['id'])}`;

  // Files: raw content on 6.14, nothing on 5.81.
  const person = await one('Contact', 'create', {
    values: { contact_type: 'Individual', first_name: 'Probe', last_name: suffix },
  });
  const file = await one('File', 'create', {
    values: { file_name: 'market study (1).pdf', mime_type: 'application/pdf', content: 'aGVsbG8=' },
  });
  digest['File.create answer keys'] = Object.keys(file).sort();
  const [stored] = (
    await api4(target, 'File', 'get', {
      select: ['file_name', 'uri', 'url'],
      where: [['id', '=', file['id']]],
    })
  ).rows;
  digest['File.get file_name'] = stored?.['file_name'];
  digest['File.get uri shape'] =
    typeof stored?.['uri'] === 'string'
      ? String(stored['uri']).replace(/[0-9a-f]{32}/, 'HEX')
      : stored?.['uri'];
  const url = stored?.['url'];
  digest['File.get url shape'] =
    typeof url === 'string' ? url.replace(/fcs=[\w.-]+$/, 'fcs=SIG').replace(/id=\d+/, 'id=N') : url;

  // Activity.create: the answer's shape; joins on get.
  const activity = await one('Activity', 'create', {
    values: {
      activity_type_id: 1,
      source_contact_id: person['id'],
      target_contact_id: [person['id']],
      subject: `probe ${suffix}`,
      [`${G}.Doc`]: file['id'],
      [`${G}.Amount`]: '12.345',
      [`${G}.Ratio`]: 3.14159265358979,
      bogus_field: 1,
    },
  });
  digest['Activity.create answer'] = Object.fromEntries(
    Object.entries(activity)
      .filter(([key]) => !['id', 'activity_date_time'].includes(key))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  digest['Activity.create date shape'] = /^\d{14}$/.test(String(activity['activity_date_time']));
  const [joined] = (
    await api4(target, 'Activity', 'get', {
      select: [
        'source_contact_id',
        'source_contact_id.display_name',
        `${G}.Doc.file_name`,
        'f.file_name',
        'src.display_name',
        `${G}.Amount`,
        `${G}.Ratio`,
        'nonsense',
      ],
      join: [
        ['File AS f', 'LEFT', [`${G}.Doc`, '=', 'f.id']],
        [
          'Contact AS src',
          'LEFT',
          'ActivityContact',
          ['id', '=', 'src.activity_id'],
          ['src.record_type_id:name', '=', '"Activity Source"'],
        ],
      ],
      where: [['id', '=', activity['id']]],
    })
  ).rows;
  digest['Activity.get with joins'] = Object.fromEntries(
    Object.entries(joined ?? {})
      .filter(([key]) => key !== 'id')
      .map(([key, value]) => [
        key.replace(G, 'G'),
        key === 'source_contact_id' ? value === person['id'] : value,
      ]),
  );
  digest['target join'] = await targetJoinAgainstContains(target, G, person['id']);
  digest['join alias'] = await joinAliasRule(target, G, activity['id']);
  digest['batch'] = await batchAnswers(target, person['id']);
  const invalid = await api4(target, 'Activity', 'get', { where: [['nonsense', '=', 1]] });
  digest['unknown where field'] = [invalid.status, invalid.error];
  const sequential = await api4(target, 'Activity', 'get', { sequential: 1 });
  const unknownAction = await api4(target, 'Activity', 'frobnicate', {});
  digest['unknown param and action'] = [
    sequential.status,
    sequential.error,
    unknownAction.status,
    unknownAction.error,
  ];
  const [implicit] = (
    await api4(target, 'Activity', 'get', { select: [`${G}.Doc.url`], where: [['id', '=', activity['id']]] })
  ).rows;
  const implicitUrl = implicit?.[`${G}.Doc.url`];
  digest['implicit url shape'] =
    typeof implicitUrl === 'string'
      ? implicitUrl.replace(/fcs=[\w.-]+$/, 'fcs=SIG').replace(/id=\d+/, 'id=N')
      : implicitUrl;

  // Dates as strtotime reads them, in the CiviCRM's zone.
  const dates: unknown[] = [];
  for (const given of ['2026-01-01T10:00:00+02:00', '20260101100000', 'garbage']) {
    const dated = await one('Activity', 'create', {
      values: { activity_type_id: 1, source_contact_id: person['id'], activity_date_time: given },
    });
    dates.push(dated['activity_date_time']);
  }
  digest['dates'] = dates;

  // A custom value of the wrong type: the row is saved bare.
  const typed = await api4(target, 'Activity', 'create', {
    values: {
      activity_type_id: 1,
      source_contact_id: person['id'],
      subject: `typed ${suffix}`,
      [`${G}.Count`]: 'abc',
      [`${G}.Amount`]: 2,
    },
  });
  const [typedRow] = (
    await api4(target, 'Activity', 'get', {
      select: [`${G}.Amount`],
      where: [['subject', '=', `typed ${suffix}`]],
    })
  ).rows;
  digest['Int type error'] = [typed.status, typed.error, typedRow?.[`${G}.Amount`]];
  const unsafe = await one('File', 'create', {
    values: { file_name: 'run.exe', mime_type: 'application/octet-stream' },
  });
  digest['unsafe extension uri'] =
    typeof unsafe['uri'] === 'string' ? unsafe['uri'].replace(/[0-9a-f]{32}/, 'HEX') : unsafe['uri'];

  // Checksums: generated by the admin, checked by anyone.
  const checksum = await one('Contact', 'getChecksum', { contactId: person['id'] });
  const valid = await api4(
    target,
    'Contact',
    'validateChecksum',
    { contactId: person['id'], checksum: checksum['checksum'] },
    { 'X-Requested-With': 'XMLHttpRequest' },
  );
  digest['checksums'] = [
    /^[0-9a-f]{32}_\d+_168$/.test(String(checksum['checksum'])),
    valid.status,
    valid.rows,
  ];

  // Non-atomic create: an Int overflow leaves the row, without custom values.
  const overflow = await api4(target, 'Activity', 'create', {
    values: {
      activity_type_id: 1,
      source_contact_id: person['id'],
      subject: `overflow ${suffix}`,
      [`${G}.Count`]: 3000000000,
      [`${G}.Amount`]: 1,
    },
  });
  const [bare] = (
    await api4(target, 'Activity', 'get', {
      select: [`${G}.Count`, `${G}.Amount`],
      where: [['subject', '=', `overflow ${suffix}`]],
    })
  ).rows;
  digest['Int overflow'] = [overflow.status, overflow.error, bare?.[`${G}.Count`], bare?.[`${G}.Amount`]];
  digest['batch with writes'] = await writeBatchAnswers(target, G, person['id'], suffix);

  // APIv3 Attachment.get.
  const v3 = (params: Row) =>
    call(target, '/civicrm/ajax/rest', { entity: 'Attachment', action: 'get', json: JSON.stringify(params) });
  const many = await v3({ id: { IN: [file['id']] }, return: 'id,url', sequential: 1 });
  digest['v3 IN'] = [
    many.status,
    many.contentType,
    many.text.includes('htmlentities(): Argument #1 ($string) must be of type string, array given'),
    many.text === '',
  ];
  const loose = await one('File', 'create', {
    values: { file_name: 'loose.txt', mime_type: 'text/plain', content: 'x' },
  });
  const unattached = JSON.parse((await v3({ id: loose['id'], sequential: 1 })).text) as Row;
  digest['v3 unattached'] = [unattached['is_error'], unattached['error_message']];
  const single = JSON.parse((await v3({ id: file['id'], return: 'id,url', sequential: 1 })).text) as {
    values: Row[];
  };
  digest['v3 one id columns'] = Object.keys(single.values[0] ?? {}).sort();
  digest['v3 one id url shape'] = String(single.values[0]?.['url'] ?? '')
    .replace(target.baseUrl, 'BASE')
    .replace(/id=\d+/, 'id=N')
    .replace(/eid=\d+/, 'eid=E')
    .replace(/fcs=[0-9a-f]{64}_\d+_168$/, 'fcs=HASH')
    .replace(/fcs=[\w-]+\.[\w-]+\.[\w-]+$/, 'fcs=JWT');

  // Auth.
  const anonymous = { 'X-Requested-With': 'XMLHttpRequest' };
  const contacts = await api4(target, 'Contact', 'get', { limit: 1 }, anonymous);
  const activities = await api4(target, 'Activity', 'get', { limit: 1 }, anonymous);
  const wrong = await api4(target, 'Contact', 'get', { limit: 1 }, { 'X-Civi-Auth': 'Bearer wrong' });
  digest['auth'] = [
    contacts.status,
    contacts.rows.length,
    activities.status,
    wrong.status,
    wrong.answer.contentType,
    wrong.answer.text,
  ];

  // Standalone's login form posts APIv4 User.login.
  const login = await call(
    target,
    '/civicrm/ajax/api4/User/login',
    {
      // 5.81's User.login names the user `username`, 6.14's `identifier`.
      params: JSON.stringify({
        [target.version === '6.14' ? 'identifier' : 'username']: target.login.username,
        password: target.login.password,
      }),
    },
    {},
  );
  digest['login'] = JSON.parse(login.text) as unknown;

  // The signed address (6.14): the bytes as stored, for a logged-in user only, never unsigned.
  if (typeof url === 'string') {
    const page = (address: string, headers: Record<string, string> = {}) =>
      fetch(`${target.baseUrl}${address}`, { headers, redirect: 'manual' });
    const session = { Cookie: login.cookie };
    const signed = await page(url, session);
    const unsigned = await page(url.replace(/&fcs=.*$/, ''), session);
    digest['file page'] = [
      signed.status,
      signed.headers.get('content-disposition'),
      await signed.text(),
      (await page(url)).status,
      unsigned.status,
    ];
  }

  // The extension's API, absent here.
  const info = await api4(target, 'CheckinMiddleware', 'info', {});
  digest['CheckinMiddleware.info'] = [info.status, info.error];
  // Replacing a File field's value: 6.14 deletes the old file, 5.81 keeps it.
  const second = await one('File', 'create', {
    values: { file_name: 'second.pdf', mime_type: 'application/pdf' },
  });
  await api4(target, 'Activity', 'update', {
    values: { [`${G}.Doc`]: second['id'] },
    where: [['id', '=', activity['id']]],
  });
  const left = await api4(target, 'File', 'get', { select: ['id'], where: [['id', '=', file['id']]] });
  digest['old file after replacing'] = left.rows.length;

  // Ids, names and signatures differ between CiviCRMs; the group and the suffix are named.
  return JSON.parse(JSON.stringify(digest).replaceAll(G, 'G').replaceAll(suffix, 'SUFFIX')) as Record<
    string,
    unknown
  >;
}

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
};

const ACTIVITY_ANSWER = {
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
};

const EXPECTED: Record<CiviCrmVersion, Record<string, unknown>> = {
  '6.14': {
    ...BASE_EXPECTED,
    'File.create answer keys': [
      'check_permissions',
      'content',
      'created_id',
      'custom',
      'file_name',
      'id',
      'mime_type',
      'upload_date',
      'uri',
    ],
    'File.get file_name': 'market_study_1.pdf',
    'File.get uri shape': 'market_study_1_HEX.pdf',
    'File.get url shape': '/civicrm/file?reset=1&id=N&fcs=SIG',
    'Int type error': [500, 'One of the parameters  (value: abc) is not of the type Timestamp', null],
    'unsafe extension uri': 'run_exe_HEX.unknown',
    'old file after replacing': 0,
    'implicit url shape': '/civicrm/file?reset=1&id=N&fcs=SIG',
    'v3 one id url shape': 'BASE/civicrm/file?reset=1&id=N&fcs=JWT',
    'Activity.create answer': ACTIVITY_ANSWER,
    'Activity.get with joins': {
      source_contact_id: true,
      'G.Doc.file_name': 'market_study_1.pdf',
      'f.file_name': 'market_study_1.pdf',
      'src.display_name': 'Probe SUFFIX',
      'G.Amount': 12.35,
      'G.Ratio': 3.1415926535898,
    },
    'v3 IN': [500, 'text/html', true, false],
    'v3 unattached': [1, 'Failed to lookup entity table for custom field.'],
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
    login: {
      values: { url: '/civicrm/home' },
      entity: 'User',
      action: 'login',
      debug: null,
      version: 4,
      count: 1,
      countFetched: 1,
    },
    'file page': [200, 'download; filename="market_study_1.pdf"', 'aGVsbG8=', 403, 500],
  },
  '5.81': {
    ...BASE_EXPECTED,
    'File.create answer keys': [
      'check_permissions',
      'content',
      'created_id',
      'custom',
      'file_name',
      'id',
      'mime_type',
    ],
    'File.get file_name': null,
    'File.get uri shape': null,
    'File.get url shape': null,
    // 5.81's message lacks a word; its File.create takes no name, so no uri at all.
    'Int type error': [500, 'One of parameters  (value: abc) is not of the type Timestamp', null],
    'old file after replacing': 1,
    'v3 one id url shape': 'BASE/civicrm/file?reset=1&id=N&eid=E&fcs=HASH',
    'Activity.create answer': ACTIVITY_ANSWER,
    'Activity.get with joins': {
      source_contact_id: true,
      'f.file_name': '',
      'src.display_name': 'Probe SUFFIX',
      'G.Amount': 12.35,
      'G.Ratio': 3.1415926535898,
    },
    'v3 IN': [500, 'text/html', false, true],
    'v3 unattached': [1, 'Failed to match record to related entity'],
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
    login: {
      values: { url: '/civicrm' },
      entity: 'User',
      action: 'login',
      debug: null,
      version: 4,
      count: 1,
      countFetched: 1,
    },
  },
};

/**
 * Submit's two batches (docs/performance.md, "Submit in two requests"): a write and then a read
 * in one batch. The read sees the write made before it in the same request; a refused create
 * (an Int overflow) fails alone with its own error envelope, its row saved without custom values,
 * and the read after it still runs; a contact update travels beside a read.
 */
async function writeBatchAnswers(
  target: Target,
  G: string,
  personId: unknown,
  suffix: string,
): Promise<unknown> {
  const send = async (calls: unknown) => {
    const answer = await call(target, '/civicrm/ajax/api4', { calls: JSON.stringify(calls) });
    return { status: answer.status, body: JSON.parse(answer.text) as Record<string, Row> };
  };
  const created = (subject: string, count: number) => [
    'Activity',
    'create',
    {
      values: {
        activity_type_id: 1,
        source_contact_id: personId,
        subject,
        [`${G}.Count`]: count,
      },
    },
  ];
  const bySubject = (subject: string) => [
    'Activity',
    'get',
    { select: ['subject', `${G}.Count`], where: [['subject', '=', subject]], orderBy: { id: 'ASC' } },
  ];
  const summary = (envelope: Row | undefined) => {
    if (!envelope) return 'absent';
    if (!Array.isArray(envelope['values'])) {
      return { error_message: envelope['error_message'], status: envelope['status'] };
    }
    const rows = envelope['values'] as Row[];
    return {
      count: envelope['count'],
      rows: rows.map((row) =>
        Object.fromEntries(
          Object.entries(row)
            .filter(([key]) => key === 'subject' || key === `${G}.Count`)
            .map(([key, value]) => [key.replace(G, 'G'), String(value).replace(suffix, 'SUFFIX')]),
        ),
      ),
    };
  };
  const worked = await send({
    '0:Activity.create': created(`batched ${suffix}`, 7),
    '1:Activity.get': bySubject(`batched ${suffix}`),
  });
  const refused = await send({
    '0:Activity.create': created(`batched overflow ${suffix}`, 3000000000),
    '1:Activity.get': bySubject(`batched overflow ${suffix}`),
  });
  const beside = await send({
    '0:Activity.get': bySubject(`batched ${suffix}`),
    '1:Contact.update': [
      'Contact',
      'update',
      { values: { job_title: 'Batched' }, where: [['id', '=', personId]] },
    ],
  });
  const updated = beside.body['1:Contact.update']?.['values'];
  const createdOne = (envelope: Row | undefined) => {
    const rows = envelope?.['values'];
    return Array.isArray(rows) && rows.length === 1 && typeof (rows[0] as Row)['id'] === 'number';
  };
  return {
    'create then get': [
      worked.status,
      Object.keys(worked.body),
      createdOne(worked.body['0:Activity.create']),
      summary(worked.body['1:Activity.get']),
    ],
    'refused create then get': [
      refused.status,
      summary(refused.body['0:Activity.create']),
      summary(refused.body['1:Activity.get']),
    ],
    'get then update': [
      beside.status,
      summary(beside.body['0:Activity.get']),
      Array.isArray(updated) ? updated.length : updated,
    ],
  };
}

/** Real CiviCRMs named in the environment, if any. */
function realTargets(): Target[] {
  const spec = process.env['CIVICRM_CONTRACT_TARGETS'];
  if (!spec) return [];
  const [username = 'admin', password = ''] = (process.env['CIVICRM_CONTRACT_LOGIN'] ?? '').split(':');
  const timeZone = process.env['CIVICRM_CONTRACT_TIMEZONE'] ?? 'UTC';
  if (timeZone !== 'UTC' && timeZone !== 'America/Chicago') {
    throw new Error('CIVICRM_CONTRACT_TIMEZONE: UTC or America/Chicago');
  }
  return spec.split(',').map((entry) => {
    const [version = '', baseUrl = ''] = entry.split('=');
    if (version !== '6.14' && version !== '5.81')
      throw new Error(`CIVICRM_CONTRACT_TARGETS: unknown version ${version}`);
    return {
      label: `real CiviCRM ${version} at ${baseUrl} (${timeZone})`,
      version,
      timeZone,
      baseUrl: baseUrl.replace(/\/+$/, ''),
      apiKey: process.env['CIVICRM_CONTRACT_API_KEY'] ?? '',
      login: { username, password },
    };
  });
}

describe('CiviCRM contract: the emulator answers as real CiviCRM does', () => {
  const emulators: CiviCrmEmulator[] = [];
  afterAll(async () => {
    await Promise.all(emulators.map((emulator) => emulator.stop()));
  });

  it.each([
    ['6.14', 'UTC'],
    ['5.81', 'UTC'],
    ['6.14', 'America/Chicago'],
  ] as const)('emulating %s on %s', async (version, timeZone) => {
    // A fresh site, as civicrm.sh installs one: no demo data, no extension.
    const emulator = await CiviCrmEmulator.start({
      apiKey: API_KEY,
      model: new CiviCrmModel({ civicrmVersion: version, extensionInstalled: false, timeZone }),
    });
    emulators.push(emulator);
    const target: Target = {
      label: `emulator ${version}`,
      version,
      timeZone,
      baseUrl: emulator.baseUrl,
      apiKey: API_KEY,
      login: { ...DEFAULT_EMULATOR_LOGIN },
    };
    expect(await runScenarios(target)).toEqual({ ...EXPECTED[version], dates: DATES[timeZone] });
  });

  const real = realTargets();
  (real.length > 0
    ? it.each(real.map((target) => [target.label, target] as const))
    : it.skip.each([['none', null]]))(
    '%s',
    async (_label, target) => {
      if (!target) return;
      expect(await runScenarios(target)).toEqual({
        ...EXPECTED[target.version],
        dates: DATES[target.timeZone],
      });
    },
    180_000,
  );
});
