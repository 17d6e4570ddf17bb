import { api4, call, type ContractTarget, type Row } from './contract-site';

/**
 * The contract flow's probes of batches and joins (civicrm-contract.spec.ts): each reduces what a
 * real CiviCRM answers to a digest with no ids in it, so the emulator's can be compared whole.
 */

/**
 * APIv4's batch endpoint as the service sends it (POST civicrm/ajax/api4, form field `calls`):
 * each call's answer under its name, in the order sent, a failing call failing alone; the
 * request's status is 200 when one call worked, the error's when none did; GET is refused.
 */
export async function batchAnswers(target: ContractTarget, personId: unknown): Promise<unknown> {
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
export async function joinAliasRule(
  target: ContractTarget,
  G: string,
  activityId: unknown,
): Promise<unknown> {
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
export async function targetJoinAgainstContains(
  target: ContractTarget,
  G: string,
  personId: unknown,
): Promise<unknown> {
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

/**
 * Submit's two batches (docs/performance.md, "Submit in two requests"): a write and then a read
 * in one batch. The read sees the write made before it in the same request; a refused create
 * (an Int overflow) fails alone with its own error envelope, its row saved without custom values,
 * and the read after it still runs; a contact update travels beside a read.
 */
export async function writeBatchAnswers(
  target: ContractTarget,
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
