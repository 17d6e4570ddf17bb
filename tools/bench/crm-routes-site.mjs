/**
 * The CiviCRM site of the route bench (tools/bench/crm-routes.mjs, whose header says what it holds):
 * its settings (BENCH_SITE, CIVICRM_PORT, CIVICRM_DB_PORT, BENCH_COOPS, BENCH_CHECKINS_PER_COOP,
 * BENCH_RUNS, BENCH_LOAD_SECONDS), the product put on it and its seed of five years of check-ins,
 * reused while bench-seed.json and the marker organization say the volume is the same.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installProduct } from '../civicrm/product-site.mjs';
import { benchSite } from './civicrm-bench-site.mjs';
import { replayOn } from './crm-proxy.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const env = process.env;
const args = process.argv.slice(2);
export const keep = args.includes('--keep');
export const seedOnly = args.includes('--seed-only');
export const base = env.BENCH_SITE ?? '/tmp/checkin-scale-bench';
const seedFile = join(base, 'bench-seed.json');
const recorded = existsSync(seedFile) ? JSON.parse(readFileSync(seedFile, 'utf8')) : undefined;
export const port = Number(env.CIVICRM_PORT ?? recorded?.port ?? 8780);
const dbPort = Number(env.CIVICRM_DB_PORT ?? recorded?.dbPort ?? port + 6);
export const ADMIN_KEY = env.CIVICRM_API_KEY ?? 'civi-test-apikey-0123456789';
/** The service's own API user (tools/civicrm/create-api-user.sh): the documented permissions only. */
export const SERVICE_KEY = 'checkin-bench-api-0123456789ab';
export const STAFF_KEY = 'bench-staff-key-0123456789';
/** A second API user: the documented permissions and 'access deleted contacts' (rows-examined comparison only). */
export const DELETED_ACCESS_KEY = 'checkin-bench-deleted-012345678';

export const COOPS = Number(env.BENCH_COOPS ?? 301);
const CHECKINS_PER_COOP = Number(env.BENCH_CHECKINS_PER_COOP ?? 40);
const LARGE = { checkIns: 400, files: 40, stages: 20 };
/** A co-op as large whose two files were uploaded in its two oldest check-ins (the form's file reads). */
const OLD_FILES = { index: 2, checkIns: 400, files: 2, stages: 4 };
export const RUNS = Number(env.BENCH_RUNS ?? 15);
export const LOAD_SECONDS = Number(env.BENCH_LOAD_SECONDS ?? 10);
export const CLIENTS = 10;
const SEED_VERSION = 2;
const MARKER = `Scale bench seed v${SEED_VERSION}: ${COOPS} co-ops x ${CHECKINS_PER_COOP} + ${LARGE.checkIns} + ${OLD_FILES.checkIns}`;
export const ACTIVITY_TYPE = 'Check-in (organizing)';

export const site = benchSite({ base, port, dbPort, adminKey: ADMIN_KEY });
/** A route's floor on this site (crm-proxy.mjs, replayOn). */
export const replay = (records) => replayOn(site.url, records);

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
export async function ensureSeededSite() {
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
