#!/usr/bin/env node
/**
 * The real-CiviCRM suite (README.md, "Working on it"; docs/emulator.md, "Checked against the
 * real thing"): for each target below, a fresh CiviCRM Standalone started by civicrm.sh
 * (tools/harness/civicrm-sites.mjs), one per supported version (6.14, 5.81), then set up by
 * following docs/civicrm-setup.md literally (tools/civicrm/guide-runs.mjs): extension, build,
 * schema, API user, settings, start, cron, health. Then the jest
 * suite in backend/test/civicrm/ runs against it over HTTP (first including an
 * owner check-in, an upload and a staff download through the service the guide started, before
 * the guide's last command stops it), the extension's end-to-end script and PHPUnit tests
 * (civicrm-extension/tests/), and on the first target the Chromium journey (e2e/civicrm/).
 * Prints `N passed, N failed` last.
 *
 *   node tools/civicrm/real-suite.mjs [--only=6.14,5.81,upgrade] [--keep] [--lanes=1|2]
 *
 * civicrm.sh comes from CIVICRM_SH, else ../shared/civicrm/civicrm.sh beside the repository. When
 * it (or PHP/MariaDB through it) is not there, the suite is skipped with a message saying how to
 * run it, except under CI=true, where a skip is a failure. Build first (`nx run-many -t build`).
 * --keep leaves the instances running (and reuses running ones) for repeated local runs.
 * REAL_SUITE_SLOT=N (0-9, default 0) moves every site's ports up by N×100 and its folder to
 * /tmp/checkin-real-N-<name>, so several checkouts can run the suite side by side.
 *
 * Time (docs/performance.md, "The test run"): the sites install one after another in the
 * background from the beginning, while one production build for every guide run is made
 * (guide-runs.mjs); the targets run in two lanes side by side (--lanes=1: one after another), the
 * first lane 6.14 with the journey then the upgrade run, the second 5.81. The 5.81 site also
 * carries both settings that need no site of their own: a CRM not on UTC (America/Chicago) and a
 * service holding only the documented API permissions, the API user the guide created
 * (`--only=chicago` and `--only=restricted` name it too). Each target's
 * output is printed whole when it ends; the summary times each target's phases.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGuideRuns } from './guide-runs.mjs';
import { runCaptured } from '../harness/captured-run.mjs';
import { settingsFrom } from './product-site.mjs';
import {
  ADMIN_KEY,
  civicrmSh,
  civicrmShPath,
  portAnswers,
  siteEnvironment,
  startSitesInBackground,
} from '../harness/civicrm-sites.mjs';
import { createTally } from './suite-results.mjs';
import { upgradeSite } from './upgrade-site.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const option = (name) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(`--${name}=`.length);
const only = option('only')?.split(',');
const keep = args.includes('--keep');
const lanes = Number(option('lanes') ?? 2);
const results = join(root, 'dist', 'test-results', 'civicrm');
const slot = Number(process.env.REAL_SUITE_SLOT ?? 0);
if (!Number.isInteger(slot) || slot < 0 || slot > 9) throw new Error('REAL_SUITE_SLOT must be 0-9');

/** Same scenarios, same expected answers, on each; `lane`: which of the two lanes runs it. */
const TARGETS = [
  {
    name: '6.14',
    version: '6.14',
    pack: 'civicrm-standalone-6.14-code.tar.gz',
    port: 8740,
    timeZone: 'UTC',
    journey: true,
    lane: 0,
  },
  {
    name: '5.81',
    // The settings that need no site of their own ride on the second version: a CRM not on UTC
    // and a service holding only the documented API permissions (the API user the guide made).
    aliases: ['chicago', 'restricted'],
    version: '5.81',
    pack: 'civicrm-standalone-5.81.1-code.tar.gz',
    port: 8750,
    timeZone: 'America/Chicago',
    restricted: true,
    lane: 1,
  },
];

const tally = createTally();

/** A command of a target: its status and its output (stdout, stderr folded in). */
function run(command, commandArgs, env = {}, { timeoutMs = 600_000 } = {}) {
  return runCaptured(command, commandArgs, { cwd: root, env: { ...process.env, ...env }, timeoutMs });
}

function targetSite(target) {
  const base = `/tmp/checkin-real-${slot}-${target.name}`;
  return siteEnvironment({
    base,
    port: target.port + slot * 100,
    pack: target.pack,
    timeZone: target.timeZone,
  });
}

/** How long each phase of a target took, for the summary. */
function phaseClock() {
  const phases = [];
  let mark = Date.now();
  return {
    lap(name) {
      const now = Date.now();
      phases.push(`${name} ${Math.round((now - mark) / 1000)} s`);
      mark = now;
    },
    toString: () => phases.join(', '),
  };
}

/** Whether process `pid` exits within 30 s (a graceful shutdown finishes its requests first). */
async function exited(pid) {
  const script = `for attempt in $(seq 1 30); do kill -0 ${pid} 2>/dev/null || exit 0; sleep 1; done; exit 1`;
  return (await run('bash', ['-c', script])).ok;
}

async function runTarget(target, siteReady, guides) {
  const label = `CiviCRM ${target.name}`;
  const out = [`\n── ${label} (${target.timeZone}${target.restricted ? ', restricted API user' : ''})\n`];
  const clock = phaseClock();
  const site = await siteReady();
  out.push(site.log);
  clock.lap(`waiting for its site (ready ${site.readyAfter} s after the suite began)`);
  try {
    if (!site.ok) return tally.fail(label, 'civicrm.sh start failed');
    const port = target.port + slot * 100;
    // A service left on the guide's port (an earlier run stopped midway) would answer the guide's
    // readiness check in place of the one the guide starts: say so rather than test the wrong one.
    if (await portAnswers(port + 3)) {
      return tally.fail(
        label,
        `port ${port + 3}, the guide's service port, is already in use: stop what listens there`,
      );
    }
    await emulatorContract(target, label, `http://127.0.0.1:${port}`, out);
    clock.lap('emulator contract');
    await runTargetOnSite(target, label, port, clock, guides, out);
  } finally {
    tally.note(`time ${label}: ${clock}`);
    process.stdout.write(out.join(''));
  }
}

/**
 * The fake CiviCRM's contract specs (libs/civicrm-fake, `*contract*.spec.ts`; docs/emulator.md)
 * held to this site while it is as fresh as civicrm.sh installs it, before the extension or the
 * schema: only their real-CiviCRM tests (`-t`), the emulator's half runs in the fake's own suite.
 */
async function emulatorContract(target, label, url, out) {
  await jestOnSite(`${label}: the emulator's contract`, `${target.name}-contract`, out, {
    config: 'libs/civicrm-fake/jest.config.cjs',
    args: ['-t', 'real CiviCRM', 'contract'],
    env: {
      CIVICRM_CONTRACT_TARGETS: `${target.version}=${url}`,
      CIVICRM_CONTRACT_API_KEY: ADMIN_KEY,
      CIVICRM_CONTRACT_LOGIN: 'admin:admin123pass',
      CIVICRM_CONTRACT_TIMEZONE: target.timeZone,
      TZ: 'UTC',
    },
  });
}

/** A jest run against the site, its results in `<name>.json` of the suite's results, counted. */
async function jestOnSite(label, name, out, { config, args, env, timeoutMs }) {
  const output = join(results, `${name}.json`);
  rmSync(output, { force: true });
  const jest = await run(
    join(root, 'node_modules', '.bin', 'jest'),
    ['-c', config, '--ci', '--json', `--outputFile=${output}`, ...args],
    env,
    { timeoutMs },
  );
  out.push(jest.stdout, jest.stderr);
  tally.jest(label, output);
}

/** Sets the site up by following the guide: the schema installer's output (the service's settings). */
async function setUp(label, guide, guides, clock, out) {
  const build = await guides.productionBuild();
  if (build && !build.ok) out.push(build.output);
  clock.lap('waiting for the production build');
  const started = Date.now();
  const followed = await guides.follow('--until-stop', guide);
  out.push(followed.output);
  const seconds = Math.round((Date.now() - started) / 1000);
  clock.lap('docs/civicrm-setup.md');
  if (!followed.ok) return tally.fail(label, `following docs/civicrm-setup.md failed (${seconds} s)`);
  tally.pass(
    `${label}: docs/civicrm-setup.md followed, service started (${seconds} s)` +
      (followed.buildRestored
        ? `; its \`npm run build\` ran as written and Nx restored ${followed.buildRestored} build tasks ` +
          "from the suite's one production build of the same sources"
        : ''),
  );
  return guides.installerOutput(guide);
}

async function runTargetOnSite(target, label, port, clock, guides, out) {
  const civicrmEnv = targetSite(target);
  const url = `http://127.0.0.1:${port}`;
  const siteDir = join(civicrmEnv.CIVICRM_BASE, 'site');
  // Each site is set up by the guide, whose service stays up for the guide-service spec.
  const guide = { dir: guides.copy(target.name), url, site: siteDir, port: port + 3 };
  try {
    const installerOutput = await setUp(label, guide, guides, clock, out);
    if (installerOutput === undefined) return;
    // A restricted target's service acts as the API user docs/civicrm-setup.md created; the
    // suite's own clients keep the administrator's key.
    const serviceKey = target.restricted ? guides.apiKey(guide) : ADMIN_KEY;
    if (!serviceKey) return tally.fail(label, "the guide's settings file holds no CRM_API_KEY");
    const suiteEnv = {
      ...settingsFrom(installerOutput),
      CIVICRM_URL: url,
      CIVICRM_ADMIN_KEY: ADMIN_KEY,
      CIVICRM_API_KEY: ADMIN_KEY,
      CIVICRM_SERVICE_KEY: serviceKey,
      CIVICRM_RESTRICTED: target.restricted ? 'true' : 'false',
      CIVICRM_TARGET: target.name,
      CIVICRM_TIMEZONE: target.timeZone,
      CIVICRM_ADMIN_USER: 'admin',
      CIVICRM_ADMIN_PASS: 'admin123pass',
      CIVICRM_SITE: siteDir,
      CIVICRM_DB_SOCKET: join(civicrmEnv.CIVICRM_BASE, 'run', 'mysqld.sock'),
    };
    // Only the guide-service spec uses the guide's service: it runs first, then the service stops.
    // Its periodic self-check must not reach the site while later specs and the extension checks
    // flush CiviCRM's caches or (un)install the extension: CiviCRM then empties and refills its menu
    // table, and a request arriving meanwhile finds its path missing and refills it too, so the
    // flush fails on a duplicate row (docs/upgrading.md, "When to stop the service first").
    await routesOverHttp(target, `${label} (the guide's service)`, suiteEnv, guide, out, {
      only: GUIDE_SERVICE_SPEC,
    });
    await stopGuideService(label, guide, guides, out);
    await routesOverHttp(target, label, suiteEnv, undefined, out, { skip: GUIDE_SERVICE_SPEC });
    clock.lap('jest');
    await extensionChecks(target, label, url, siteDir, out);
    clock.lap('extension checks');
    await extensionUnitTests(label, url, siteDir, out);
    clock.lap('PHPUnit');
    if (target.journey) {
      const journeyOutput = join(root, 'dist', 'e2e', 'civicrm-results.json');
      rmSync(journeyOutput, { force: true });
      const journey = await run(
        join(root, 'node_modules', '.bin', 'playwright'),
        ['test', '-c', 'e2e/civicrm/playwright.config.ts'],
        { ...suiteEnv, PLAYWRIGHT_JSON_OUTPUT_NAME: journeyOutput },
      );
      out.push(journey.stdout, journey.stderr);
      tally.playwright(`${label}: Chromium journey`, journeyOutput);
      clock.lap('Chromium journey');
    }
  } finally {
    // A no-op once stopped above; here for a target that failed before.
    await stopGuideService(label, guide, guides, out);
    if (!keep) civicrmSh('stop', civicrmEnv);
    clock.lap('stopping');
  }
}

/** The spec that reaches the site through the service the guide started (GUIDE_SERVICE_DIR). */
const GUIDE_SERVICE_SPEC = 'guide-service';

/**
 * The jest suite in backend/test/civicrm against the site: `only` the specs matching a pattern
 * (with the guide's service), or every one but those of `skip`.
 */
async function routesOverHttp(target, label, suiteEnv, guide, out, { only: pattern, skip } = {}) {
  await jestOnSite(`${label}: routes over HTTP`, `${target.name}${pattern ? `-${pattern}` : ''}`, out, {
    config: 'backend/test/civicrm/jest.config.cjs',
    args: [
      ...(pattern ? ['--testPathPatterns', pattern] : []),
      ...(skip ? ['--testPathIgnorePatterns', skip] : []),
    ],
    env: {
      ...suiteEnv,
      ...(guide ? { GUIDE_SERVICE_DIR: guide.dir } : {}),
      TZ: 'UTC',
      NODE_OPTIONS: '--experimental-vm-modules --disable-warning=ExperimentalWarning',
    },
    // Its spec files run one after another; on a busy machine they need more than the default 10 minutes.
    timeoutMs: 1_800_000,
  });
}

/** The extension's end-to-end script (civicrm-extension/tests/run.sh). */
async function extensionChecks(target, label, url, siteDir, out) {
  const checks = await run('bash', [join(root, 'civicrm-extension', 'tests', 'run.sh')], {
    CIVICRM_URL: url,
    CIVICRM_SITE: siteDir,
    CIVICRM_API_KEY: ADMIN_KEY,
    CIVICRM_ADMIN_USER: 'admin',
    CIVICRM_ADMIN_PASS: 'admin123pass',
    CIVICRM_EXPECT_TIMEZONE: target.timeZone,
  });
  out.push(checks.stdout, checks.stderr);
  tally.script(`${label}: extension`, checks);
}

/**
 * The extension's PHPUnit tests (civicrm-extension/tests/phpunit), booted inside the site the
 * extension was just installed on. PHPUnit is Debian's `phpunit` package (.ci/run installs it);
 * without it the step is skipped with a message, or fails under CI=true.
 */
async function extensionUnitTests(label, url, site, out) {
  if (!(await run('sh', ['-c', 'command -v phpunit'])).ok) {
    const reason = 'phpunit is not installed (apt-get install phpunit)';
    if (process.env.CI === 'true') return tally.fail(`${label}: extension PHPUnit`, reason);
    return tally.skip(`${label}: extension PHPUnit: ${reason}`);
  }
  const output = join(results, `phpunit-${label.replace(/\W+/g, '-')}.xml`);
  rmSync(output, { force: true });
  const phpunit = await run(
    'phpunit',
    ['-c', join(root, 'civicrm-extension', 'phpunit.xml.dist'), '--log-junit', output],
    { CIVICRM_SITE: site, CIVICRM_URL: url },
  );
  out.push(phpunit.stdout, phpunit.stderr);
  tally.junit(`${label}: extension PHPUnit`, output, phpunit.ok);
}

/** The guide's own last command stops the service it started, and the service is gone after it. */
async function stopGuideService(label, guide, guides, out) {
  const pidFile = guide && guides.pidFile(guide);
  if (!pidFile) return;
  const pid = readFileSync(pidFile, 'utf8').trim();
  const stopped = await guides.follow('--stop', guide);
  out.push(stopped.output);
  if (!stopped.ok) {
    tally.fail(label, "docs/civicrm-setup.md's command to stop the service failed");
  } else if (!(await exited(pid))) {
    tally.fail(label, `docs/civicrm-setup.md's command to stop the service left it running (pid ${pid})`);
    await run('kill', ['-9', pid]);
  } else {
    tally.pass(`${label}: docs/civicrm-setup.md's stop command stopped the service`);
  }
  rmSync(pidFile, { force: true });
}

/**
 * The upgrade run (tools/civicrm/upgrade-run.mjs, docs/upgrading.md): release 0.1.0 set up by its
 * own guide on a CiviCRM 6.14 of its own, upgraded to this tree by docs/upgrading.md, data, links
 * and settings checked. Its build of this tree restores the suite's one production build (the
 * shared Nx cache). Runs in the first lane after 6.14, with the full matrix or `--only=upgrade`.
 */
async function upgradeRun(guides, siteReady) {
  const label = 'upgrade run (0.1.0 to this tree, CiviCRM 6.14)';
  const build = await guides.productionBuild();
  if (build && !build.ok) tally.note(`the shared production build failed: the upgrade run builds its own`);
  const site = await siteReady();
  // A site that did not come up in the background is the upgrade run's to reset and start again.
  if (!site.ok)
    tally.note(`the upgrade run's site did not start in the background: the run starts it itself`);
  const started = Date.now();
  const upgrade = await run(
    process.execPath,
    [
      join(root, 'tools', 'civicrm', 'upgrade-run.mjs'),
      `--nx-cache=${guides.sharedBuildEnvironment().NX_CACHE_DIRECTORY}`,
      ...(site.ok && !keep ? ['--site-started'] : []),
    ],
    {},
    { timeoutMs: 1_800_000 },
  );
  process.stdout.write(`\n── ${label}\n${upgrade.stdout}`);
  tally.script(label, upgrade);
  tally.note(`time ${label}: ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Every PHP file of the extension parses (`php -l`), before any CiviCRM runs it. */
function lintExtension() {
  const capture = { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] };
  const files = (spawnSync('find', [join(root, 'civicrm-extension'), '-name', '*.php'], capture).stdout ?? '')
    .split('\n')
    .filter(Boolean);
  const broken = files.filter((file) => spawnSync('php', ['-l', file], capture).status !== 0);
  if (broken.length > 0) return tally.fail('php -l', broken.join(', '));
  tally.pass(`php -l on ${files.length} extension files`);
}

function skipAll(reason) {
  const message =
    `real-CiviCRM suite skipped: ${reason}. To run it, put CiviCRM's test pack beside the repository ` +
    '(../shared/civicrm/civicrm.sh) or set CIVICRM_SH, then `node tools/civicrm/real-suite.mjs`.';
  if (process.env.CI === 'true') tally.fail('real-CiviCRM suite', `${reason} (CI must run it)`);
  else tally.skip(message);
}

mkdirSync(results, { recursive: true });
const guides = createGuideRuns({ slot, adminKey: ADMIN_KEY });
if (!existsSync(civicrmShPath())) {
  skipAll(`no ${civicrmShPath()}`);
} else if (!existsSync(join(root, 'dist', 'backend', 'crm-schema.js'))) {
  tally.fail('real-CiviCRM suite', 'dist/backend/crm-schema.js is missing: build the back end first');
} else {
  const targets = TARGETS.filter(
    (target) => !only || [target.name, ...(target.aliases ?? [])].some((name) => only.includes(name)),
  );
  const upgrading = !only || only.includes('upgrade');
  // The upgrade run's site last: it is ready long before the first lane reaches the upgrade run.
  const upgradeSiteEnv = upgradeSite({ slot, version: '6.14' }).env;
  const sites = startSitesInBackground(
    [
      ...targets.map((target) => ({ name: target.name, env: targetSite(target) })),
      ...(upgrading ? [{ name: 'upgrade', env: upgradeSiteEnv }] : []),
    ],
    { dir: join(results, 'sites'), reset: !keep },
  );
  if (targets.length > 0) guides.startProductionBuild();
  try {
    const laneTargets = Array.from({ length: Math.max(1, lanes) }, (_, lane) =>
      targets.filter((target) => (lanes > 1 ? target.lane === lane : true)),
    );
    let linted = false;
    await Promise.all(
      laneTargets.map(async (laneList) => {
        for (const target of laneList) {
          await runTarget(target, sites[target.name], guides);
          // civicrm.sh installs PHP on first start: lint after the first site is up.
          if (!linted) lintExtension();
          linted = true;
        }
        if (laneList === laneTargets[0] && upgrading) await upgradeRun(guides, sites.upgrade);
      }),
    );
  } finally {
    // Each target stops its own site; this catches one whose start failed half-way, or the sites
    // started for targets an error kept from running.
    for (const target of targets) {
      await sites[target.name]();
      if (!keep) civicrmSh('stop', targetSite(target));
    }
    // The upgrade run stops its own site; this one, when the run did not come to it.
    if (upgrading) {
      await sites.upgrade();
      if (!keep) civicrmSh('stop', upgradeSiteEnv);
    }
  }
}

// The copies hold only what their commands built (node_modules is hard-linked).
if (!keep) guides.removeAll();

process.stdout.write(`\n── real CiviCRM summary\n${tally.lines.join('\n')}\n\n${tally.totalsLine()}\n`);
process.exitCode = tally.totals.failed === 0 ? 0 : 1;
