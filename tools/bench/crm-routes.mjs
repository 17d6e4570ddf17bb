#!/usr/bin/env node
/**
 * Every owner and staff route on a real CiviCRM with five years of data, against its floor
 * (docs/performance.md, "One request per page read"): a step of `npm run bench` when
 * ../shared/civicrm is there (tools/bench/run.mjs), never of `npm test`; alone:
 * `node tools/bench/crm-routes.mjs [--keep] [--seed-only]` after a build (`dist/`).
 *
 *   1. starts a CiviCRM 6.14 from ../shared/civicrm in BENCH_SITE (default /tmp/checkin-scale-bench;
 *      CIVICRM_SH, CIVICRM_PORT and CIVICRM_DB_PORT as civicrm.sh takes them; a seeded site keeps
 *      the ports it was installed with, read from its bench-seed.json);
 *   2. the first time, puts the product on it as the real suite does (the extension, the schema
 *      installer: tools/civicrm/product-site.mjs; the API user of tools/civicrm/create-api-user.sh,
 *      holding the documented permissions only) and seeds it through APIv4 batches: BENCH_COOPS
 *      co-ops, each with its Primary Contact, the check-ins they recorded with the product's custom
 *      values (many answers filled, some cleared), the stages staff set and the PDFs they
 *      uploaded; one large co-op with 400 check-ins, 40 files and 20 staff-set stages, and one
 *      ('old files') with 400 check-ins whose only two files are in its two oldest. A site
 *      already seeded at the same volume (bench-seed.json and the marker organization) is reused;
 *      a half-seeded one is reset and seeded again;
 *   3. starts the built service (tools/build/start-production.mjs) in live mode, talking to
 *      CiviCRM through a logging proxy, and for the large and a typical co-op times each route
 *      one request after another (BENCH_RUNS runs after a warm-up), and its floor: the very
 *      CiviCRM requests the proxy captured for it, sent straight to CiviCRM round by round;
 *      counts its CiviCRM requests and rounds (requests in flight together form one), the calls in
 *      them, the bytes CiviCRM answered and the rows MariaDB examined (Handler_read* around one
 *      request of the route); then form loads per second with 10 clients, and an owner's first
 *      request of a visit (a checksum the service has not seen);
 *   4. counts the rows the check-in list examines per check-in for the service's API user, the
 *      same user with 'access deleted contacts', and the administrator (checkInReadRows);
 *   5. prints a table and writes dist/bench/crm-routes.json (with `figures` for the bench summary).
 *
 * The site is stopped at the end (left running with --keep); its folder stays for the next run.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { startBuiltServiceWith } from '../harness/processes.cjs';
import {
  checkInReadRows,
  measureFirstRequest,
  measureRoute,
  routeRequests,
  throughput,
} from './crm-routes-measure.mjs';
import {
  CLIENTS,
  COOPS,
  LOAD_SECONDS,
  RUNS,
  SERVICE_KEY,
  STAFF_KEY,
  base,
  ensureSeededSite,
  env,
  keep,
  port,
  replay,
  root,
  seedOnly,
  site,
} from './crm-routes-site.mjs';
import { callsOf, startProxy } from './crm-proxy.mjs';

// --- the service --------------------------------------------------------------------------------

/** The service as deployed (tools/build/start-production.mjs) against `crmUrl`, ready once /api/health/ready says 2xx. */
function startService(crmUrl, seeded, servicePort) {
  const logFile = join(base, 'service.log');
  return startBuiltServiceWith(
    {
      ...Object.fromEntries(Object.entries(env).filter(([name]) => !/^(CRM_|NODE_ENV$|PORT$)/.test(name))),
      ...seeded.settings,
      CRM_BASE_URL: crmUrl,
      CRM_API_KEY: SERVICE_KEY,
      CRM_FILE_ROUTE: '/civicrm/checkin-file?id={id}',
      STAFF_REPORT_KEY: STAFF_KEY,
      ADMIN_KEY: 'bench-admin-key-0123456789',
      UPLOAD_RECEIPT_KEY: 'bench-upload-receipt-key-0123456789abcdef',
      FILE_LINK_KEY: 'bench-file-link-key-0123456789abcdefghij',
      RATE_LIMIT_READS_PER_MINUTE: '1000000',
      RATE_LIMIT_SUBMITS_PER_MINUTE: '100000',
      RATE_LIMIT_UPLOADS_PER_MINUTE: '100000',
      // No deployment self-check in the middle of a measured route.
      SELF_CHECK_INTERVAL_SECONDS: '3600',
    },
    {
      script: join(root, 'tools', 'build', 'start-production.mjs'),
      port: servicePort,
      readyPath: '/api/health/ready',
      okOnly: true,
      timeoutMs: 60_000,
      logFile,
    },
  ).catch((error) => {
    throw new Error(`the service did not become ready (${logFile}): ${error.message}`);
  });
}

/** Every check-in the bench's submits (and their floor's replays) created: the seed stays as seeded. */
async function removeSubmitted(submissionIds, groups) {
  if (submissionIds.length === 0) return;
  await site.api4('Activity', 'delete', {
    where: [[`${groups.activity}.Submission_ID`, 'IN', submissionIds.splice(0)]],
  });
}

async function main() {
  const startedAt = Date.now();
  const uptimeBefore = spawnSync('uptime', { encoding: 'utf8' }).stdout.trim();
  const loadBefore = loadavg().map((value) => Number(value.toFixed(2)));
  const seeded = await ensureSeededSite();
  const servicePort = port + 3;
  const proxy = await startProxy(new URL(site.url));
  const service = await startService(proxy.url, seeded, servicePort);
  const submissionIds = [];
  const results = [];
  let loads;
  let checkInReads = [];
  try {
    const statusCost = (() => {
      const before = site.rowsExamined();
      return site.rowsExamined() - before;
    })();
    checkInReads = await checkInReadRows(seeded, statusCost);
    const checksums = await site.batch({
      large: ['Contact', 'getChecksum', { contactId: seeded.coops.large.personId }],
      typical: ['Contact', 'getChecksum', { contactId: seeded.coops.typical.personId }],
      'old files': ['Contact', 'getChecksum', { contactId: seeded.coops['old files'].personId }],
    });
    for (const [name, coop] of Object.entries(seeded.coops)) {
      const withChecksum = { ...coop, checksum: checksums[name][0].checksum };
      const requests = routeRequests(service, withChecksum, submissionIds, seeded.groups);
      const { 'POST /api/submit': submit, ...reads } = requests;
      const measured = async (label, send) => {
        const result = await measureRoute(label, send, proxy, statusCost);
        results.push({ coop: name, checkIns: coop.checkIns, ...result });
        process.stdout.write(`  ${name} ${label}: p50 ${result.p50Ms} ms, floor ${result.floorP50Ms} ms\n`);
        return result;
      };
      const reading = {};
      for (const [label, send] of Object.entries(reads)) reading[label] = await measured(label, send);
      const first = await measureFirstRequest(service, withChecksum, proxy, statusCost);
      results.push({ coop: name, checkIns: coop.checkIns, ...first });
      if (name === 'large') {
        const load = async () => (await requests['GET /api/data']()).arrayBuffer();
        await throughput(load, 3); // warm-up: every client's connection
        loads = {
          serviceLoadsPerSecond: await throughput(load),
          floorLoadsPerSecond: await throughput(() => replay(reading['GET /api/data'].records)),
        };
        proxy.take();
      }
      // Submits last, and their check-ins removed at once: they are the newest, and the reads
      // above must see the co-op as seeded.
      await measured('POST /api/submit', submit);
      await removeSubmitted(submissionIds, seeded.groups);
    }
  } finally {
    await service.stop();
    await proxy.close();
    await removeSubmitted(submissionIds, seeded.groups);
    if (!keep) site.civicrm('stop');
  }
  const uptimeAfter = spawnSync('uptime', { encoding: 'utf8' }).stdout.trim();
  const machine = {
    cores: cpus().length,
    loadAverageBefore: loadBefore,
    loadAverageAfter: loadavg().map((value) => Number(value.toFixed(2))),
    uptimeBefore,
    uptimeAfter,
  };
  const large = (route) => results.find((result) => result.coop === 'large' && result.route === route);
  const figures = [
    ['GET /api/data', 120, 1],
    ['GET /api/report', 110, 1],
    ['GET /api/staff/report', 150, 2],
  ].flatMap(([route, ms, requests]) => [
    {
      figure: `Scale, large co-op: ${route} (p50)`,
      value: large(route).p50Ms,
      unit: 'ms',
      target: { max: ms },
    },
    {
      figure: `Scale, large co-op: ${route}, CiviCRM requests`,
      value: large(route).crmRequests,
      unit: 'requests',
      target: { max: requests },
    },
  ]);
  figures.push(
    {
      figure: 'Scale, large co-op: POST /api/submit, CiviCRM requests',
      value: large('POST /api/submit').crmRequests,
      unit: 'requests',
      target: { max: 2 },
    },
    {
      figure: 'Scale, large co-op: form loads/s, 10 clients',
      value: loads.serviceLoadsPerSecond,
      unit: 'loads/s',
      target: { min: 15 },
    },
    {
      figure: 'Scale, large co-op: CRM bytes read for the form',
      value: Math.round(large('GET /api/data').crmBytes / 100) / 10,
      unit: 'kB',
      target: { max: 100 },
    },
  );
  for (const read of checkInReads.filter((row) => row.user === "the service's API user")) {
    figures.push({
      figure: `Scale, ${read.coop} co-op (${read.checkIns}): rows examined per check-in, check-in list, beyond an empty Activity read`,
      value: read.perCheckInBeyondEmptyActivityRead,
      unit: 'rows',
      target: { max: 5 },
    });
  }
  const output = {
    site: site.url,
    seed: seeded.marker,
    volume: {
      coops: COOPS,
      checkIns: seeded.checkIns,
      stageSettings: seeded.stageSettings,
      files: seeded.files,
    },
    runs: RUNS,
    loadSeconds: LOAD_SECONDS,
    machine,
    seconds: Math.round((Date.now() - startedAt) / 1000),
    results: results.map(({ records, ...rest }) => ({
      ...rest,
      crmRequestsSent: records.map(
        (record) => `${record.method} ${record.path} (${callsOf(record)} calls, ${record.bytes} B)`,
      ),
    })),
    throughput: loads,
    checkInReads,
    figures,
  };
  mkdirSync(join(root, 'dist', 'bench'), { recursive: true });
  writeFileSync(join(root, 'dist', 'bench', 'crm-routes.json'), `${JSON.stringify(output, null, 2)}\n`);
  printTable(output);
}

function printTable(output) {
  const rows = output.results.map((result) => ({
    'co-op': `${result.coop} (${result.checkIns})`,
    route: result.route,
    'p50 ms': result.p50Ms,
    'p95 ms': result.p95Ms,
    'floor p50': result.floorP50Ms,
    ratio: result.ratio,
    requests: result.crmRequests,
    rounds: result.crmRounds,
    calls: result.crmCalls,
    'CRM kB': Math.round(result.crmBytes / 100) / 10,
    'rows examined': result.rowsExamined,
  }));
  const columns = Object.keys(rows[0]);
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => String(row[column]).length)),
  );
  const line = (cells) => cells.map((cell, index) => String(cell).padEnd(widths[index])).join('  ');
  process.stdout.write(
    `\nseed: ${output.seed} (${output.volume.checkIns} check-ins, ${output.volume.stageSettings} staff stages, ${output.volume.files} PDFs)\n` +
      `machine: ${output.machine.cores} cores; before: ${output.machine.uptimeBefore}; after: ${output.machine.uptimeAfter}\n` +
      `${RUNS} runs per route, sequential, after 3 warm-up requests\n\n` +
      [
        line(columns),
        line(widths.map((width) => '-'.repeat(width))),
        ...rows.map((row) => line(columns.map((c) => row[c]))),
      ].join('\n') +
      `\n\nform loads/s, ${CLIENTS} clients, large co-op, ${LOAD_SECONDS} s: service ${output.throughput.serviceLoadsPerSecond}, floor ${output.throughput.floorLoadsPerSecond}\n` +
      `\ncheck-in list, rows examined: in all / beyond start-up (per check-in) / beyond an empty Activity read (per check-in):\n` +
      output.checkInReads
        .map(
          (read) =>
            `  ${`${read.coop} (${read.checkIns})`.padEnd(14)} ${read.user.padEnd(52)} ${String(read.rowsExamined).padStart(6)}` +
            ` / ${read.rowsExamined - read.startupRowsExamined} (${read.perCheckInBeyondStartup})` +
            ` / ${read.rowsExamined - read.emptyActivityReadRowsExamined} (${read.perCheckInBeyondEmptyActivityRead})` +
            `  [start-up ${read.startupRowsExamined}, empty Activity read ${read.emptyActivityReadRowsExamined}]` +
            `  same rows, same order: ${read.sameRowsSameOrder}`,
        )
        .join('\n') +
      `\ntook ${output.seconds} s\n`,
  );
}

const run = seedOnly
  ? ensureSeededSite().then((seeded) => {
      process.stdout.write(`${JSON.stringify(seeded, null, 2)}\n`);
      if (!keep) site.civicrm('stop');
    })
  : main();
run.catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
