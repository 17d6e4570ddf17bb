/**
 * The route bench's measurements (tools/bench/crm-routes.mjs): each route's times against its
 * floor (the CiviCRM requests it made, replayed straight to CiviCRM), an owner's first request,
 * form loads per second and the rows MariaDB examines for the check-in list per API user.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ACTIVITY_TYPE,
  ADMIN_KEY,
  CLIENTS,
  DELETED_ACCESS_KEY,
  LOAD_SECONDS,
  RUNS,
  SERVICE_KEY,
  STAFF_KEY,
  env,
  replay,
  root,
  site,
} from './crm-routes-site.mjs';
import { crmTraffic } from './crm-proxy.mjs';

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
export const round1 = (value) => Math.round(value * 10) / 10;

function linkQuery(coop, checksum = coop.checksum) {
  return new URLSearchParams({
    contactId: String(coop.personId),
    orgId: String(coop.orgId),
    cid: String(coop.personId),
    cs: checksum,
  }).toString();
}

export function routeRequests(service, coop, submissionIds, groups) {
  let run = 0;
  return {
    'GET /api/data': () => fetch(`${service.url}/api/data?${linkQuery(coop)}`),
    'GET /api/report': () => fetch(`${service.url}/api/report?${linkQuery(coop)}`),
    'GET /api/staff/report': () =>
      fetch(`${service.url}/api/staff/report?orgId=${coop.orgId}`, { headers: { 'X-Staff-Key': STAFF_KEY } }),
    'POST /api/submit': () => {
      run += 1;
      const submissionId = randomUUID();
      submissionIds.push(submissionId);
      return fetch(`${service.url}/api/submit`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          cid: String(coop.personId),
          cs: coop.checksum,
          contactId: coop.personId,
          orgId: coop.orgId,
          submissionId,
          values: {
            Steering_committee_size: 5 + (run % 20),
            Interest_list_size: 100 + run,
            Organizing_notes: 'Bench check-in: met the steering committee.',
            // An organization answer that changes, so the organization's update is part of it.
            Name_on_Incorporation_Certificate: `Scale Bench Co-op ${groups.activity.length}-${run}`,
          },
        }),
      });
    },
  };
}

async function expectOk(response, label) {
  const text = await response.text();
  if (!response.ok) throw new Error(`${label}: HTTP ${response.status} ${text.slice(0, 300)}`);
  return Buffer.byteLength(text);
}

/** Rows MariaDB examines for one call of `action`, the status query's own cost taken off. */
async function rowsFor(action, statusCost) {
  const before = site.rowsExamined();
  await action();
  return site.rowsExamined() - before - statusCost;
}

export async function measureRoute(label, send, proxy, statusCost) {
  for (let warm = 0; warm < 3; warm += 1) await expectOk(await send(), label);
  proxy.take();
  const times = [];
  let traffic;
  let records = [];
  let answerBytes = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    answerBytes = await expectOk(await send(), label);
    times.push(performance.now() - started);
    records = proxy.take();
    traffic = crmTraffic(records);
  }
  const floorTimes = [];
  for (let run = 0; run < RUNS; run += 1) floorTimes.push(await replay(records));
  const examined = await rowsFor(async () => expectOk(await send(), label), statusCost);
  proxy.take();
  const floorExamined = await rowsFor(() => replay(records), statusCost);
  const p50 = percentile(times, 50);
  const floorP50 = percentile(floorTimes, 50);
  return {
    route: label,
    p50Ms: round1(p50),
    p95Ms: round1(percentile(times, 95)),
    floorP50Ms: round1(floorP50),
    floorP95Ms: round1(percentile(floorTimes, 95)),
    ratio: Math.round((p50 / floorP50) * 100) / 100,
    crmRequests: traffic.requests,
    crmRounds: traffic.rounds,
    crmCalls: traffic.calls,
    crmBytes: traffic.bytes,
    crmStatuses: traffic.statuses,
    answerBytes,
    rowsExamined: examined,
    floorRowsExamined: floorExamined,
    records,
  };
}

/** An owner's first request of a visit: each run with a checksum the service has not validated yet. */
export async function measureFirstRequest(service, coop, proxy, statusCost) {
  const fresh = await site.batch(
    Object.fromEntries(
      Array.from({ length: RUNS + 1 }, (_, index) => [
        `k${index}`,
        // A different lifetime gives a different checksum: each is a new visit to the service.
        ['Contact', 'getChecksum', { contactId: coop.personId, ttl: 24 * 7 + 1 + index }],
      ]),
    ),
  );
  const checksums = Object.values(fresh).map((values) => values[0].checksum);
  proxy.take();
  const times = [];
  let records = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    await expectOk(
      await fetch(`${service.url}/api/data?${linkQuery(coop, checksums[run])}`),
      'first request',
    );
    times.push(performance.now() - started);
    records = proxy.take();
  }
  const traffic = crmTraffic(records);
  const floorTimes = [];
  for (let run = 0; run < RUNS; run += 1) floorTimes.push(await replay(records));
  const examined = await rowsFor(
    async () =>
      expectOk(await fetch(`${service.url}/api/data?${linkQuery(coop, checksums[RUNS])}`), 'first request'),
    statusCost,
  );
  proxy.take();
  return {
    route: "GET /api/data, an owner's first request of a visit",
    p50Ms: round1(percentile(times, 50)),
    p95Ms: round1(percentile(times, 95)),
    floorP50Ms: round1(percentile(floorTimes, 50)),
    floorP95Ms: round1(percentile(floorTimes, 95)),
    ratio: Math.round((percentile(times, 50) / percentile(floorTimes, 50)) * 100) / 100,
    crmRequests: traffic.requests,
    crmRounds: traffic.rounds,
    crmCalls: traffic.calls,
    crmBytes: traffic.bytes,
    crmStatuses: traffic.statuses,
    rowsExamined: examined,
    records,
  };
}

/** Completed requests per second with `CLIENTS` clients each sending the next as soon as one ends. */
export async function throughput(send, seconds = LOAD_SECONDS) {
  let done = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) {
        await send();
        done += 1;
      }
    }),
  );
  return Math.round((done / ((performance.now() - started) / 1000)) * 10) / 10;
}

/**
 * Rows MariaDB examines for the check-in list as the service asks for it (its join and filter:
 * backend/src/app/crm/check-in-filter.ts), per check-in the co-op holds, beyond what any request
 * costs before its own query: CiviCRM's start-up (a Contact read that matches nothing) and, for a
 * user without 'administer CiviCRM', Activity's permission preamble (CRM_Activity_BAO_Activity's
 * list of permitted activity types, a scan of civicrm_option_value that CiviCRM does once per
 * request, however many Activity calls the request's batch holds): an Activity read that matches
 * nothing. With the service's API user (the documented permissions), the same user also holding
 * 'access deleted contacts' (CiviCRM then adds no contact subqueries to the read), and the
 * administrator; each answers the same rows in the same order (checked).
 */
export async function checkInReadRows(seeded, statusCost) {
  const permissions = readFileSync(join(root, 'tools', 'civicrm', 'api-user-permissions.txt'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const user = spawnSync('bash', [join(root, 'tools', 'civicrm', 'create-api-user.sh')], {
    encoding: 'utf8',
    env: {
      ...env,
      CIVICRM_URL: site.url,
      CIVICRM_API_KEY: ADMIN_KEY,
      API_USER_KEY: DELETED_ACCESS_KEY,
      API_USER_NAME: 'checkin-bench-deleted',
      API_USER_ROLE: 'checkin_bench_deleted',
      API_USER_PERMISSIONS: [...permissions, 'access deleted contacts'].join(','),
    },
  });
  if (user.status !== 0) throw new Error(`the comparison API user could not be created: ${user.stderr}`);
  const keys = [
    ["the service's API user", SERVICE_KEY],
    ["the service's API user + 'access deleted contacts'", DELETED_ACCESS_KEY],
    ['administrator', ADMIN_KEY],
  ];
  const nothing = { select: ['id'], where: [['id', '=', 0]], limit: 1 };
  const rows = [];
  for (const [name, coop] of Object.entries(seeded.coops)) {
    const params = {
      select: ['id', 'activity_date_time'],
      join: [
        [
          'ActivityContact AS tgt',
          'INNER',
          ['tgt.activity_id', '=', 'id'],
          ['tgt.record_type_id:name', '=', '"Activity Targets"'],
        ],
      ],
      where: [
        ['activity_type_id:name', '=', ACTIVITY_TYPE],
        ['tgt.contact_id', '=', coop.orgId],
      ],
      orderBy: { activity_date_time: 'DESC', id: 'DESC' },
    };
    let reference;
    for (const [who, key] of keys) {
      // Each measured after one call of the same kind, so all find CiviCRM's caches alike.
      await site.api4('Contact', 'get', nothing, key);
      const startup = await rowsFor(() => site.api4('Contact', 'get', nothing, key), statusCost);
      await site.api4('Activity', 'get', nothing, key);
      const emptyActivityRead = await rowsFor(() => site.api4('Activity', 'get', nothing, key), statusCost);
      let answer = await site.api4('Activity', 'get', params, key);
      const examined = await rowsFor(async () => {
        answer = await site.api4('Activity', 'get', params, key);
      }, statusCost);
      const ids = JSON.stringify(answer.map((row) => row.id));
      reference ??= ids;
      rows.push({
        coop: name,
        checkIns: coop.checkIns,
        user: who,
        rows: answer.length,
        startupRowsExamined: startup,
        emptyActivityReadRowsExamined: emptyActivityRead,
        rowsExamined: examined,
        perCheckInBeyondStartup: round1((examined - startup) / coop.checkIns),
        perCheckInBeyondEmptyActivityRead: round1((examined - emptyActivityRead) / coop.checkIns),
        sameRowsSameOrder: ids === reference,
      });
    }
  }
  return rows;
}
