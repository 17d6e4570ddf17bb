import { randomBytes } from 'node:crypto';
import {
  batchAnswers,
  joinAliasRule,
  targetJoinAgainstContains,
  writeBatchAnswers,
} from './contract-batch-probes';
import { api4, call, type ContractTarget, itOnRealTargets, onEmulatedSite, type Row } from './contract-site';
import { DATES, EXPECTED } from './civicrm-contract.expected';

/**
 * Contract scenarios: one flow of calls whose answers are reduced to a digest (what the service
 * depends on, with ids, dates and signatures replaced by what they must be). The emulator must
 * give the digests measured on real CiviCRM 6.14 and 5.81.1 (civicrm-contract.expected.ts).
 *
 * The same flow runs against the real CiviCRMs contract-site.ts names, so the expectations cannot
 * drift from the real thing. The flow creates its own throwaway records there (a custom group on
 * activities, contacts, files), named with a random suffix.
 */

/** Runs the flow and reduces every answer to what must not differ between CiviCRMs. */
async function runScenarios(target: ContractTarget): Promise<Record<string, unknown>> {
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

describe('CiviCRM contract: the emulator answers as real CiviCRM does', () => {
  it.each([
    ['6.14', 'UTC'],
    ['5.81', 'UTC'],
    ['6.14', 'America/Chicago'],
  ] as const)('emulating %s on %s', async (version, timeZone) => {
    const digest = await onEmulatedSite(version, timeZone, runScenarios);
    expect(digest).toEqual({ ...EXPECTED[version], dates: DATES[timeZone] });
  });

  itOnRealTargets(
    'the flow',
    async (target) => {
      expect(await runScenarios(target)).toEqual({
        ...EXPECTED[target.version],
        dates: DATES[target.timeZone],
      });
    },
    180_000,
  );
});
