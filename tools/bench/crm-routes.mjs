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
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installProduct } from '../civicrm/product-site.mjs';
import { benchSite } from './civicrm-bench-site.mjs';
import { callsOf, crmTraffic, replayOn, startProxy } from './crm-proxy.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const env = process.env;
const args = process.argv.slice(2);
const keep = args.includes('--keep');
const seedOnly = args.includes('--seed-only');
const civicrmSh = env.CIVICRM_SH ?? join(root, '..', 'shared', 'civicrm', 'civicrm.sh');
const base = env.BENCH_SITE ?? '/tmp/checkin-scale-bench';
const seedFile = join(base, 'bench-seed.json');
const recorded = existsSync(seedFile) ? JSON.parse(readFileSync(seedFile, 'utf8')) : undefined;
const port = Number(env.CIVICRM_PORT ?? recorded?.port ?? 8780);
const dbPort = Number(env.CIVICRM_DB_PORT ?? recorded?.dbPort ?? port + 6);
const ADMIN_KEY = env.CIVICRM_API_KEY ?? 'civi-test-apikey-0123456789';
/** The service's own API user (tools/civicrm/create-api-user.sh): the documented permissions only. */
const SERVICE_KEY = 'checkin-bench-api-0123456789ab';
const STAFF_KEY = 'bench-staff-key-0123456789';
/** A second API user: the documented permissions and 'access deleted contacts' (rows-examined comparison only). */
const DELETED_ACCESS_KEY = 'checkin-bench-deleted-012345678';

const COOPS = Number(env.BENCH_COOPS ?? 301);
const CHECKINS_PER_COOP = Number(env.BENCH_CHECKINS_PER_COOP ?? 40);
const LARGE = { checkIns: 400, files: 40, stages: 20 };
/** A co-op as large whose two files were uploaded in its two oldest check-ins (the form's file reads). */
const OLD_FILES = { index: 2, checkIns: 400, files: 2, stages: 4 };
const RUNS = Number(env.BENCH_RUNS ?? 15);
const LOAD_SECONDS = Number(env.BENCH_LOAD_SECONDS ?? 10);
const CLIENTS = 10;
const SEED_VERSION = 2;
const MARKER = `Scale bench seed v${SEED_VERSION}: ${COOPS} co-ops x ${CHECKINS_PER_COOP} + ${LARGE.checkIns} + ${OLD_FILES.checkIns}`;
const ACTIVITY_TYPE = 'Check-in (organizing)';

const site = benchSite({ civicrmSh, base, port, dbPort, adminKey: ADMIN_KEY });
/** A route's floor on this site (crm-proxy.mjs, replayOn). */
const replay = (records) => replayOn(site.url, records);

// --- seed ---------------------------------------------------------------------------------------

/** A small deterministic random source, so every seed of the same volume holds the same data. */
function randomSource(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    chance: (p) => next() < p,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
  };
}

const DAY_MS = 86_400_000;
const FIVE_YEARS_DAYS = 1825;
const START = Date.UTC(2021, 0, 4);
const crmDate = (ms) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
/** A small but genuine PDF (what owners upload), sent as CiviCRM's File.create content. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj ' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
).toString('base64');

async function productFields(groups) {
  const fields = await site.api4('CustomField', 'get', {
    select: ['name', 'data_type', 'html_type', 'serialize', 'option_group_id', 'custom_group_id:name'],
    where: [['custom_group_id:name', 'IN', [groups.activity, groups.contact]]],
    orderBy: { weight: 'ASC' },
  });
  const optionGroups = fields.map((field) => field.option_group_id).filter(Boolean);
  const options = await site.api4('OptionValue', 'get', {
    select: ['option_group_id', 'value'],
    where: [
      ['option_group_id', 'IN', optionGroups],
      ['is_active', '=', true],
    ],
    orderBy: { weight: 'ASC' },
  });
  return fields.map((field) => ({
    ...field,
    group: field['custom_group_id:name'],
    key: `${field['custom_group_id:name']}.${field.name}`,
    options: options.filter((option) => option.option_group_id === field.option_group_id).map((o) => o.value),
  }));
}

function sampleValue(field, random, atMs) {
  switch (field.data_type) {
    case 'Int':
      return random.int(0, 900);
    case 'Money':
      return random.int(0, 90_000_000) / 100;
    case 'Float':
      return random.int(0, 1000) / 10;
    case 'Date':
      return crmDate(atMs - random.int(0, 400) * DAY_MS).slice(0, 10);
    case 'Boolean':
      return random.chance(0.6);
    case 'String':
      if (field.html_type === 'Select') {
        if (field.serialize) {
          const picked = field.options.filter(() => random.chance(0.4));
          return picked.length > 0 ? picked : [field.options[0]];
        }
        return random.pick(field.options);
      }
      return `Bench answer ${random.int(1, 99_999)}`;
    case 'Memo':
      return `We met with ${random.int(3, 40)} members and planned the next steps for the co-op. `.repeat(
        random.int(1, 4),
      );
    default:
      return undefined;
  }
}

async function seed(groups) {
  const random = randomSource(25);
  const fields = await productFields(groups);
  const special = new Set(['Stage', 'Submission_ID', 'Cleared_fields']);
  const answerFields = fields.filter(
    (field) => field.group === groups.activity && !special.has(field.name) && field.data_type !== 'File',
  );
  const activityFileFields = fields.filter(
    (field) => field.group === groups.activity && field.data_type === 'File',
  );
  const contactFields = fields.filter(
    (field) => field.group === groups.contact && field.data_type !== 'File' && field.name !== 'Stage',
  );
  const contactFileField = fields.find(
    (field) => field.group === groups.contact && field.data_type === 'File',
  );
  const stageField = fields.find((field) => field.group === groups.activity && field.name === 'Stage');
  const [relationshipType] = await site.api4('RelationshipType', 'get', {
    select: ['id'],
    where: [['name_a_b', '=', 'Primary Contact']],
  });

  process.stdout.write(`seeding ${COOPS} co-ops and their Primary Contacts…\n`);
  const coopCount = COOPS;
  const orgIds = await site.createMany(
    'Contact',
    Array.from({ length: coopCount }, (_, index) => {
      const values = { contact_type: 'Organization', organization_name: `Scale bench co-op ${index + 1}` };
      for (const field of contactFields) {
        if (random.chance(0.7))
          values[field.key] = sampleValue(field, random, START + FIVE_YEARS_DAYS * DAY_MS);
      }
      return values;
    }),
  );
  const personIds = await site.createMany(
    'Contact',
    Array.from({ length: coopCount }, (_, index) => ({
      contact_type: 'Individual',
      first_name: 'Owner',
      last_name: `Of co-op ${index + 1}`,
    })),
  );
  await site.createMany(
    'Email',
    personIds.map((id) => ({ contact_id: id, email: `owner.${id}@example.org`, is_primary: true })),
  );
  await site.createMany(
    'Relationship',
    personIds.map((id, index) => ({
      contact_id_a: id,
      contact_id_b: orgIds[index],
      relationship_type_id: relationshipType.id,
      is_active: true,
    })),
  );

  // Uploaded PDFs: 40 for the large co-op, one or two for each other, and the certificate on
  // every 37th organization.
  const fileCounts = orgIds.map((_, index) =>
    index === 0 ? LARGE.files : index === OLD_FILES.index ? OLD_FILES.files : index % 3 === 0 ? 2 : 1,
  );
  const certificateHolders = orgIds.filter((_, index) => index > 0 && index % 37 === 0);
  const fileTotal = fileCounts.reduce((sum, count) => sum + count, 0) + certificateHolders.length;
  process.stdout.write(`seeding ${fileTotal} PDFs…\n`);
  const fileIds = await site.createMany(
    'File',
    Array.from({ length: fileTotal }, (_, index) => ({
      mime_type: 'application/pdf',
      file_name: `bench-plan-${index + 1}.pdf`,
      content: PDF,
    })),
    { size: 50 },
  );
  let nextFile = 0;
  if (contactFileField) {
    await site.batch(
      Object.fromEntries(
        certificateHolders.map((orgId, index) => [
          `c${index}`,
          [
            'Contact',
            'update',
            { where: [['id', '=', orgId]], values: { [contactFileField.key]: fileIds[nextFile++] } },
          ],
        ]),
      ),
    );
  }

  const checkIns = [];
  orgIds.forEach((orgId, orgIndex) => {
    const large = orgIndex === 0;
    const oldFiles = orgIndex === OLD_FILES.index;
    const count = large ? LARGE.checkIns : oldFiles ? OLD_FILES.checkIns : CHECKINS_PER_COOP;
    const stages = large ? LARGE.stages : oldFiles ? OLD_FILES.stages : 3 + (orgIndex % 3 === 0 ? 1 : 0);
    const files = fileCounts[orgIndex];
    // Which check-ins are staff stage settings and which carry an upload: spread evenly.
    const stageAt = new Set(
      Array.from({ length: stages }, (_, k) => Math.floor(((k + 0.5) * count) / stages)),
    );
    const fileAt = new Set(
      oldFiles
        ? Array.from({ length: files }, (_, k) => k)
        : Array.from({ length: files }, (_, k) => Math.floor(((k + 0.25) * count) / files)).filter(
            (i) => !stageAt.has(i),
          ),
    );
    let stageRank = 0;
    for (let index = 0; index < count; index += 1) {
      // Spread over five years; every fifth shares its date and time with the one before (ties on id).
      const dayOffset =
        Math.floor(((index - (index % 5 === 4 ? 1 : 0)) * FIVE_YEARS_DAYS) / count) + (orgIndex % 7);
      const atMs = START + dayOffset * DAY_MS + (9 + (orgIndex % 8)) * 3_600_000;
      const common = {
        'activity_type_id:name': ACTIVITY_TYPE,
        'status_id:name': 'Completed',
        target_contact_id: [orgId],
        activity_date_time: crmDate(atMs),
      };
      if (stageAt.has(index)) {
        stageRank = Math.min(stageRank + 1, stageField.options.length);
        checkIns.push({
          ...common,
          subject: 'Stage set by staff',
          source_contact_id: 2,
          [stageField.key]: stageField.options[Math.max(0, stageRank - 1)],
        });
        continue;
      }
      const values = {
        ...common,
        subject: 'Organizing check-in',
        source_contact_id: personIds[orgIndex],
        [`${groups.activity}.Submission_ID`]: randomUUID(),
      };
      for (const field of answerFields) {
        if (random.chance(0.55)) values[field.key] = sampleValue(field, random, atMs);
      }
      if (random.chance(0.12)) {
        const cleared = answerFields.filter(() => random.chance(0.06)).slice(0, 3);
        const names = (cleared.length > 0 ? cleared : [random.pick(answerFields)]).map((field) => field.name);
        for (const name of names) delete values[`${groups.activity}.${name}`];
        values[`${groups.activity}.Cleared_fields`] = [...names].sort().join(',');
      }
      if (fileAt.has(index) && activityFileFields.length > 0) {
        // The old-files co-op holds one upload per file field, in its oldest check-ins.
        const fileField = oldFiles
          ? activityFileFields[index % activityFileFields.length]
          : random.pick(activityFileFields);
        values[fileField.key] = fileIds[nextFile++];
      }
      checkIns.push(values);
    }
  });
  process.stdout.write(`seeding ${checkIns.length} check-ins…\n`);
  const started = Date.now();
  await site.createMany('Activity', checkIns, { size: 100, parallel: 3 });
  process.stdout.write(`  ${Math.round((Date.now() - started) / 1000)} s\n`);
  const typicalIndex = 1;
  const held = {
    large: { orgId: orgIds[0], personId: personIds[0], checkIns: LARGE.checkIns },
    typical: { orgId: orgIds[typicalIndex], personId: personIds[typicalIndex], checkIns: CHECKINS_PER_COOP },
    'old files': {
      orgId: orgIds[OLD_FILES.index],
      personId: personIds[OLD_FILES.index],
      checkIns: OLD_FILES.checkIns,
    },
  };
  await site.api4('Contact', 'create', {
    values: {
      contact_type: 'Organization',
      organization_name: MARKER,
      external_identifier: `scale-bench-v${SEED_VERSION}`,
    },
  });
  return {
    checkIns: checkIns.length,
    stageSettings: checkIns.filter((values) => values.subject === 'Stage set by staff').length,
    files: fileTotal,
    coops: held,
  };
}

/** The seeded site: reused when its marker is there, else set up from nothing. */
async function ensureSeededSite() {
  if (recorded?.marker === MARKER) {
    site.civicrm('start');
    const [marker] = await site.api4('Contact', 'get', {
      select: ['id'],
      where: [['organization_name', '=', MARKER]],
    });
    if (marker) {
      process.stdout.write(`seed found (${MARKER}): reusing ${base}\n`);
      return recorded;
    }
  }
  if (existsSync(join(base, 'site'))) {
    process.stdout.write(`${base} holds no complete seed of this volume: resetting it\n`);
    site.civicrm('stop');
    site.civicrm('reset');
  }
  site.civicrm('start');
  const installed = installProduct({ root, siteDir: site.siteDir, url: site.url, adminKey: ADMIN_KEY });
  process.stdout.write(installed.output);
  if (!installed.ok) throw new Error(`the product's ${installed.step} did not install`);
  const user = spawnSync('bash', [join(root, 'tools', 'civicrm', 'create-api-user.sh')], {
    stdio: 'inherit',
    env: { ...env, CIVICRM_URL: site.url, CIVICRM_API_KEY: ADMIN_KEY, API_USER_KEY: SERVICE_KEY },
  });
  if (user.status !== 0) throw new Error('the API user could not be created');
  const groups = {
    activity: installed.settings.CRM_ACTIVITY_CUSTOM_GROUP ?? 'Check_in_data__organizing_',
    contact: installed.settings.CRM_CONTACT_CUSTOM_GROUP ?? 'Food_Co_op_Organizing',
  };
  const started = Date.now();
  const seeded = await seed(groups);
  const description = {
    marker: MARKER,
    port,
    dbPort,
    settings: installed.settings,
    groups,
    seedSeconds: Math.round((Date.now() - started) / 1000),
    ...seeded,
  };
  writeFileSync(seedFile, `${JSON.stringify(description, null, 2)}\n`);
  return description;
}

// --- the service --------------------------------------------------------------------------------

async function startService(crmUrl, seeded, servicePort) {
  const log = join(base, 'service.log');
  const out = openSync(log, 'w');
  const child = spawn(process.execPath, [join(root, 'tools', 'build', 'start-production.mjs')], {
    cwd: root,
    stdio: ['ignore', out, out],
    env: {
      ...Object.fromEntries(Object.entries(env).filter(([name]) => !/^(CRM_|NODE_ENV$|PORT$)/.test(name))),
      ...seeded.settings,
      PORT: String(servicePort),
      PUBLIC_BASE_URL: `http://127.0.0.1:${servicePort}`,
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
  });
  const url = `http://127.0.0.1:${servicePort}`;
  for (let attempt = 0; attempt < 120; attempt += 1) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${url}/api/health/ready`)).ok) return { url, child, log };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  child.kill();
  throw new Error(`the service did not become ready (${log})`);
}

// --- measuring ----------------------------------------------------------------------------------

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const round1 = (value) => Math.round(value * 10) / 10;

function linkQuery(coop, checksum = coop.checksum) {
  return new URLSearchParams({
    contactId: String(coop.personId),
    orgId: String(coop.orgId),
    cid: String(coop.personId),
    cs: checksum,
  }).toString();
}

function routeRequests(service, coop, submissionIds, groups) {
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

async function measureRoute(label, send, proxy, statusCost) {
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
async function measureFirstRequest(service, coop, proxy, statusCost) {
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
async function throughput(send, seconds = LOAD_SECONDS) {
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
async function checkInReadRows(seeded, statusCost) {
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
    service.child.kill('SIGTERM');
    await new Promise((resolve) => service.child.once('exit', resolve));
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
