#!/usr/bin/env node
/**
 * The check-in reads at scale, on a real CiviCRM (docs/performance.md, "One request per page
 * read"): a step of `npm run bench` when ../shared/civicrm is there (tools/bench/run.mjs), never
 * of `npm test` (it installs a CiviCRM and seeds it); alone: `node tools/bench/crm-scale.mjs`.
 *
 *   1. starts a CiviCRM 6.14 from ../shared/civicrm (CIVICRM_SH, CIVICRM_BASE, CIVICRM_PORT,
 *      CIVICRM_DB_PORT; CIVICRM_PACK for 5.81) or uses the one already running there;
 *   2. seeds it through APIv4 batches: organizations, each with check-ins (activity type
 *      'Check-in (organizing)'), one large co-op with BENCH_LARGE_CHECKINS of them. The seed is
 *      kept: a run that finds the marker organization of the same volume reuses it;
 *   3. for the large and for a typical co-op, times the check-in list and the newest-check-in
 *      lookup both ways (`target_contact_id CONTAINS` and the ActivityContact join the service
 *      sends), checks both answer the same rows in the same order, and counts the rows MariaDB
 *      examined (the Handler_read* status, read on the site's own socket around each query);
 *   4. times the form's five reads sent as five requests against the same five as one batch.
 *
 * Writes dist/bench/crm-scale.json (with `figures` for the bench summary: rows examined beyond
 * CiviCRM's own start-up per check-in the co-op holds, target ≤ 5) and prints a table; the
 * figures go to docs/performance.md with the machine's load (printed too).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchSite } from './civicrm-bench-site.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const env = process.env;
const base = env.CIVICRM_BASE ?? '/tmp/checkin-bench-civicrm';
const port = Number(env.CIVICRM_PORT ?? 8790);
const dbPort = Number(env.CIVICRM_DB_PORT ?? port + 6);
const apiKey = env.CIVICRM_API_KEY ?? 'civi-test-apikey-0123456789';

const ORGANIZATIONS = Number(env.BENCH_ORGANIZATIONS ?? 301);
const CHECKINS_PER_ORG = Number(env.BENCH_CHECKINS_PER_ORG ?? 40);
const LARGE_CHECKINS = Number(env.BENCH_LARGE_CHECKINS ?? 400);
const RUNS = Number(env.BENCH_RUNS ?? 15);
const ACTIVITY_TYPE = 'Check-in (organizing)';
const MARKER = `Bench seed ${ORGANIZATIONS}x${CHECKINS_PER_ORG}+${LARGE_CHECKINS}`;

const TARGET_JOIN = [
  'ActivityContact AS tgt',
  'INNER',
  ['tgt.activity_id', '=', 'id'],
  ['tgt.record_type_id:name', '=', '"Activity Targets"'],
];

const site = benchSite({ base, port, dbPort, adminKey: apiKey });
const { api4, batch, rowsExamined } = site;
const createMany = (entity, valuesList, size = 100) =>
  site.createMany(entity, valuesList, { size, parallel: 1 });

async function ensureActivityType() {
  const [existing] = await api4('OptionValue', 'get', {
    where: [
      ['option_group_id:name', '=', 'activity_type'],
      ['name', '=', ACTIVITY_TYPE],
    ],
  });
  if (existing) return;
  await api4('OptionValue', 'create', {
    values: { 'option_group_id:name': 'activity_type', name: ACTIVITY_TYPE, label: ACTIVITY_TYPE },
  });
}

async function seed() {
  const [marker] = await api4('Contact', 'get', {
    select: ['id', 'external_identifier'],
    where: [['organization_name', '=', MARKER]],
  });
  if (marker) {
    const [large, typical] = String(marker.external_identifier).split(',').map(Number);
    process.stdout.write(`seed found (${MARKER}): reusing it\n`);
    return { large, typical };
  }
  await ensureActivityType();
  const [person] = await createMany('Contact', [
    { contact_type: 'Individual', first_name: 'Bench', last_name: 'Owner' },
  ]);
  const names = Array.from({ length: ORGANIZATIONS }, (_, index) => ({
    contact_type: 'Organization',
    organization_name: `Bench co-op ${index + 1}`,
  }));
  const orgs = await createMany('Contact', names);
  const [large, typical] = orgs;
  const checkIns = [];
  const day = (offset) =>
    new Date(Date.UTC(2021, 0, 1) + offset * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
  orgs.forEach((org, orgIndex) => {
    const count = org === large ? LARGE_CHECKINS : CHECKINS_PER_ORG;
    for (let index = 0; index < count; index += 1) {
      checkIns.push({
        'activity_type_id:name': ACTIVITY_TYPE,
        'status_id:name': 'Completed',
        subject: 'Organizing check-in',
        source_contact_id: person,
        target_contact_id: [org],
        // Spread over five years; every fifth shares its date with the one before (ties on id).
        activity_date_time: day(
          Math.floor(((index - (index % 5 === 4 ? 1 : 0)) * 1825) / count) + (orgIndex % 7),
        ),
      });
    }
  });
  process.stdout.write(`seeding ${orgs.length} organizations and ${checkIns.length} check-ins…\n`);
  await createMany('Activity', checkIns, 200);
  await createMany('Contact', [
    { contact_type: 'Organization', organization_name: MARKER, external_identifier: `${large},${typical}` },
  ]);
  return { large, typical };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function measure(label, params) {
  const times = [];
  let examined = 0;
  let rows = [];
  for (let run = 0; run < RUNS; run += 1) {
    const before = rowsExamined();
    const started = performance.now();
    rows = await api4('Activity', 'get', params);
    times.push(performance.now() - started);
    // The status query itself reads a few rows; measured alone it is subtracted below.
    examined = rowsExamined() - before;
  }
  return {
    label,
    p50Ms: Math.round(median(times)),
    rows: rows.length,
    ids: rows.map((row) => row.id),
    examined,
  };
}

function listParams(org, filter, extra = {}) {
  const byJoin = filter === 'join';
  return {
    select: ['id', 'activity_date_time'],
    ...(byJoin ? { join: [TARGET_JOIN] } : {}),
    where: [
      ['activity_type_id:name', '=', ACTIVITY_TYPE],
      byJoin ? ['tgt.contact_id', '=', org] : ['target_contact_id', 'CONTAINS', org],
    ],
    orderBy: { activity_date_time: 'DESC', id: 'DESC' },
    ...extra,
  };
}

async function main() {
  site.civicrm('start');
  const { large, typical } = await seed();
  const statusCost = (() => {
    const before = rowsExamined();
    return rowsExamined() - before;
  })();
  // What any API request examines before its own query (CiviCRM's start-up): a call that matches nothing.
  const startupBefore = rowsExamined();
  await api4('Contact', 'get', { select: ['id'], where: [['id', '=', 0]], limit: 1 });
  const startupCost = rowsExamined() - startupBefore - statusCost;
  const held = { 'large co-op': LARGE_CHECKINS, 'typical co-op': CHECKINS_PER_ORG };
  const figures = [];
  const results = [];
  for (const [coop, org] of [
    ['large co-op', large],
    ['typical co-op', typical],
  ]) {
    for (const [read, extra] of [
      ['check-in list', {}],
      ['newest check-in (limit 1)', { limit: 1 }],
    ]) {
      const contains = await measure(`${coop}, ${read}, CONTAINS`, listParams(org, 'contains', extra));
      const joined = await measure(`${coop}, ${read}, join`, listParams(org, 'join', extra));
      const same = JSON.stringify(contains.ids) === JSON.stringify(joined.ids);
      if (extra.limit === undefined) {
        figures.push({
          figure: `Rows examined per check-in held, ${coop}'s check-in list (join, beyond start-up)`,
          value: Number(((joined.examined - statusCost - startupCost) / held[coop]).toFixed(1)),
          unit: 'rows',
          target: { max: 5 },
        });
      }
      for (const result of [contains, joined]) {
        results.push({
          label: result.label,
          p50Ms: result.p50Ms,
          rows: result.rows,
          rowsExamined: result.examined - statusCost,
          sameRowsSameOrder: same,
        });
      }
    }
  }
  // The form's five reads (person, organization, check-ins, stage, options): apart, then batched.
  const formCalls = {
    person: [
      'Contact',
      'get',
      { select: ['first_name', 'last_name', 'email_primary.email'], where: [['id', '=', large]] },
    ],
    organization: ['Contact', 'get', { select: ['display_name'], where: [['id', '=', large]], limit: 1 }],
    checkIns: ['Activity', 'get', listParams(large, 'join')],
    stage: ['Activity', 'get', listParams(large, 'join', { limit: 1 })],
    options: [
      'OptionValue',
      'get',
      { select: ['value', 'label'], where: [['option_group_id:name', '=', 'activity_type']] },
    ],
  };
  const apart = [];
  const together = [];
  for (let run = 0; run < RUNS; run += 1) {
    let started = performance.now();
    for (const [entity, action, params] of Object.values(formCalls)) await api4(entity, action, params);
    apart.push(performance.now() - started);
    started = performance.now();
    await batch(formCalls);
    together.push(performance.now() - started);
  }
  results.push({ label: 'form reads, five requests one after another', p50Ms: Math.round(median(apart)) });
  results.push({ label: 'form reads, one batch request', p50Ms: Math.round(median(together)) });

  const machine = { cores: cpus().length, loadAverage: loadavg().map((value) => Number(value.toFixed(2))) };
  figures.push(
    {
      figure: 'Form reads at scale, five requests (p50)',
      value: Math.round(median(apart)),
      unit: 'ms',
      target: {},
    },
    {
      figure: 'Form reads at scale, one batch (p50)',
      value: Math.round(median(together)),
      unit: 'ms',
      target: {},
    },
  );
  const output = {
    site: site.url,
    seed: MARKER,
    runs: RUNS,
    machine,
    startupRowsExamined: startupCost,
    results,
    figures,
  };
  mkdirSync(join(root, 'dist', 'bench'), { recursive: true });
  writeFileSync(join(root, 'dist', 'bench', 'crm-scale.json'), `${JSON.stringify(output, null, 2)}\n`);
  process.stdout.write(`\nmachine: ${machine.cores} cores, load ${machine.loadAverage.join(' / ')}\n`);
  process.stdout.write(`CiviCRM start-up: ${startupCost} rows examined per request\n`);
  for (const result of results) {
    const extra =
      result.rows === undefined
        ? ''
        : `  rows ${result.rows}  examined ${result.rowsExamined}  same rows, same order: ${result.sameRowsSameOrder}`;
    process.stdout.write(`${result.label.padEnd(52)} p50 ${String(result.p50Ms).padStart(5)} ms${extra}\n`);
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
