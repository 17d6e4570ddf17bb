#!/usr/bin/env node
/**
 * The real-CiviCRM suite (README.md, "Working on it"; docs/emulator.md, "Checked against the
 * real thing"): for each target of the matrix below, a fresh CiviCRM Standalone started by
 * civicrm.sh, then set up: on the two supported versions (6.14, 5.81) by following
 * docs/civicrm-setup.md literally (tools/civicrm/follow-setup-guide.mjs, in a copy of the
 * repository, so its production build leaves this checkout's dist/ alone): extension, build,
 * schema, API user, settings, start, cron, health; on the others by installing the extension and
 * running the built schema installer (`crm-schema.js --apply`). Then the jest suite in
 * backend/test/civicrm/ runs against it over HTTP (on the guide's sites including an owner
 * check-in, an upload and a staff download through the service the guide started, before the
 * guide's last command stops it), the extension's end-to-end script and PHPUnit tests
 * (civicrm-extension/tests/), and on the first target the Chromium journey (e2e/civicrm/).
 * Prints `N passed, N failed` last.
 *
 *   node tools/civicrm/real-suite.mjs [--only=6.14,5.81,chicago,restricted] [--keep]
 *
 * civicrm.sh comes from CIVICRM_SH, else ../shared/civicrm/civicrm.sh beside the repository. When
 * it (or PHP/MariaDB through it) is not there, the suite is skipped with a message saying how to
 * run it, except under CI=true, where a skip is a failure. Build first (`nx run-many -t build`).
 * --keep leaves the instances running (and reuses running ones) for repeated local runs.
 * REAL_SUITE_SLOT=N (0-9, default 0) moves every site's ports up by N×100 and its folder to
 * /tmp/checkin-civicrm-N-<name>, so several checkouts can run the suite side by side.
 *
 * The sites are started one after another in the background from the beginning (civicrm.sh
 * start: MariaDB, CiviCRM's installer, PHP), so a site is usually ready when its turn comes; each
 * target waits for its own. The summary times each target's phases (waiting for its site, the
 * guide, the jest suite, the extension's checks, PHPUnit, the journey, the guide's stop command).
 * Both guide runs happen in one copy of the repository: the second's `npm install` and
 * `npm run build` run as the guide writes them, and Nx restores the bundles the first built from
 * the same sources (the summary says so when it did); the guide's build is thus built from
 * nothing once per run.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createConnection } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installProduct, settingsFrom } from './product-site.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const only = args
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const keep = args.includes('--keep');
const civicrmSh = resolve(process.env.CIVICRM_SH ?? join(root, '..', 'shared', 'civicrm', 'civicrm.sh'));
const packDir = dirname(civicrmSh);
const results = join(root, 'dist', 'test-results', 'civicrm');
const ADMIN_KEY = 'civi-test-apikey-0123456789';
/** The restricted API user's key (created by tools/civicrm/create-api-user.sh). */
const RESTRICTED_KEY = 'checkin-restricted-0123456789';
const slot = Number(process.env.REAL_SUITE_SLOT ?? 0);
if (!Number.isInteger(slot) || slot < 0 || slot > 9) throw new Error('REAL_SUITE_SLOT must be 0-9');

/**
 * Same scenarios, same expected answers, on each: both supported versions, the newest on a CRM
 * that is not on UTC, and the newest with an API user holding only the documented permissions.
 */
const TARGETS = [
  {
    name: '6.14',
    pack: 'civicrm-standalone-6.14-code.tar.gz',
    port: 8700,
    timeZone: 'UTC',
    journey: true,
    primary: true,
  },
  { name: '5.81', pack: 'civicrm-standalone-5.81.1-code.tar.gz', port: 8710, timeZone: 'UTC', primary: true },
  { name: 'chicago', pack: 'civicrm-standalone-6.14-code.tar.gz', port: 8720, timeZone: 'America/Chicago' },
  {
    name: 'restricted',
    pack: 'civicrm-standalone-6.14-code.tar.gz',
    port: 8730,
    timeZone: 'UTC',
    restricted: true,
  },
];

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];

function run(command, commandArgs, env = {}, options = {}) {
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    stdio: options.capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    timeout: options.timeoutMs ?? 600_000,
  });
  return { ok: result.status === 0, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

function fail(label, detail) {
  totals.failed += 1;
  lines.push(`FAIL ${label}${detail ? `: ${detail}` : ''}`);
}

function skipAll(reason) {
  const message =
    `real-CiviCRM suite skipped: ${reason}. To run it, put CiviCRM's test pack beside the repository ` +
    '(../shared/civicrm/civicrm.sh) or set CIVICRM_SH, then `node tools/civicrm/real-suite.mjs`.';
  if (process.env.CI === 'true') {
    fail('real-CiviCRM suite', `${reason} (CI must run it)`);
  } else {
    totals.skipped += 1;
    lines.push(`skip ${message}`);
  }
}

function countJest(label, output) {
  if (!existsSync(output)) return fail(label, 'no results');
  const report = JSON.parse(readFileSync(output, 'utf8'));
  const broken = report.numRuntimeErrorTestSuites ?? 0;
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests + broken;
  totals.skipped += report.numPendingTests;
  const failed = report.numFailedTests + broken;
  lines.push(`${failed === 0 ? 'ok  ' : 'FAIL'} ${label}: ${report.numPassedTests} passed, ${failed} failed`);
}

function countPlaywright(label, output) {
  if (!existsSync(output)) return fail(label, 'no results');
  const { stats } = JSON.parse(readFileSync(output, 'utf8'));
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  lines.push(
    `${stats.unexpected === 0 ? 'ok  ' : 'FAIL'} ${label}: ${stats.expected + stats.flaky} passed, ${stats.unexpected} failed`,
  );
}

/**
 * A copy of the repository for the guide to run in: the files git tracks or would track, and
 * node_modules hard-linked (the guide's `npm install` then finds it complete). Made once per run;
 * the second site's build is restored from the copy's Nx cache.
 */
let guideCopy;
function guideDirectory() {
  if (guideCopy) return guideCopy;
  const dir = `/tmp/checkin-guide-${slot}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = run(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {},
    { capture: true },
  );
  const list = join(dir, '.guide-files');
  writeFileSync(list, files.stdout);
  const copied =
    files.ok &&
    run('tar', ['-cf', join(dir, '.guide-files.tar'), '--null', '-T', list], {}, { capture: true }).ok &&
    run('tar', ['-xf', join(dir, '.guide-files.tar'), '-C', dir], {}, { capture: true }).ok &&
    run('cp', ['-al', join(root, 'node_modules'), join(dir, 'node_modules')], {}, { capture: true }).ok;
  rmSync(list, { force: true });
  rmSync(join(dir, '.guide-files.tar'), { force: true });
  if (!copied) throw new Error(`could not copy the repository to ${dir}`);
  guideCopy = dir;
  return dir;
}

/**
 * Runs docs/civicrm-setup.md's commands (`--until-stop` or `--stop`) against one site: whether
 * they succeeded, and whether Nx restored the guide's build from an earlier run in the same copy.
 */
function followGuide(part, guide) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(CRM_|NODE_ENV$|PORT$|PUBLIC_BASE_URL$)/.test(name)),
  );
  const result = spawnSync(
    process.execPath,
    [join(root, 'tools', 'civicrm', 'follow-setup-guide.mjs'), '--run', guide.dir, part],
    {
      cwd: guide.dir,
      env: {
        ...env,
        GUIDE_CIVICRM_URL: guide.url,
        GUIDE_CIVICRM_ADMIN_KEY: ADMIN_KEY,
        GUIDE_CIVICRM_SITE_DIR: guide.site,
        GUIDE_CHECKIN_URL: `http://127.0.0.1:${guide.port}`,
        GUIDE_CHECKIN_PORT: String(guide.port),
      },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
      timeout: 900_000,
    },
  );
  process.stdout.write((result.stdout ?? '') + (result.stderr ?? ''));
  const restored =
    /read the output from the cache instead of running the command for (\d+) out of (\d+) tasks/.exec(
      result.stdout ?? '',
    );
  return {
    ok: result.status === 0,
    buildRestored: restored && restored[1] !== '0' ? `${restored[1]} of ${restored[2]}` : null,
  };
}

/** Whether process `pid` exits within 30 s (a graceful shutdown finishes its requests first). */
function exited(pid) {
  const script = `for attempt in $(seq 1 30); do kill -0 ${pid} 2>/dev/null || exit 0; sleep 1; done; exit 1`;
  return run('bash', ['-c', script], {}, { capture: true }).ok;
}

/**
 * civicrm.sh's settings for one target's site. TMPDIR, which MariaDB takes for its temporary
 * tables, is the site's own: with the shared /tmp, a site's MariaDB crashed (signal 11, creating a
 * temporary table) the second another site's `mariadb-install-db` ran. The folder is
 * world-writable and sticky like /tmp: MariaDB runs as its own user, not as the suite's.
 */
function siteEnvironment(target) {
  const port = target.port + slot * 100;
  const base =
    slot === 0 ? `/tmp/checkin-civicrm-${target.name}` : `/tmp/checkin-civicrm-${slot}-${target.name}`;
  return {
    CIVICRM_BASE: base,
    TMPDIR: join(base, 'tmp'),
    CIVICRM_PORT: String(port),
    CIVICRM_DB_PORT: String(port + 6),
    CIVICRM_PACK: join(packDir, target.pack),
    CIVICRM_TIMEZONE: target.timeZone,
    CIVICRM_API_KEY: ADMIN_KEY,
  };
}

/**
 * Starts the targets' sites one after another in one background shell (reset first, unless
 * --keep), each writing its civicrm.sh output and then its exit status to files of its own, so
 * the first target's tests run while the next sites install. Returns, per target name, a wait for
 * that site: `{ ok, log, seconds }`.
 */
function startSitesInBackground(targets) {
  const dir = join(results, 'sites');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const quote = (value) => `'${String(value).replace(/'/g, `'\\''`)}'`;
  const script = targets
    .map((target) => {
      const env = Object.entries(siteEnvironment(target))
        .map(([name, value]) => `${name}=${quote(value)}`)
        .join(' ');
      const log = quote(join(dir, `${target.name}.log`));
      const status = quote(join(dir, `${target.name}.status`));
      const reset = keep ? '' : `${env} bash ${quote(civicrmSh)} reset >> ${log} 2>&1; `;
      const tmp = quote(siteEnvironment(target).TMPDIR);
      return `{ ${reset}mkdir -p ${tmp} && chmod 1777 ${tmp}; ${env} timeout 900 bash ${quote(civicrmSh)} start >> ${log} 2>&1; echo $? > ${status}.tmp; mv ${status}.tmp ${status}; }`;
    })
    .join('\n');
  const started = Date.now();
  const out = openSync(join(dir, 'chain.log'), 'w');
  const chain = spawn('bash', ['-c', script], { cwd: root, stdio: ['ignore', out, out] });
  closeSync(out);
  chain.unref();
  return Object.fromEntries(
    targets.map((target) => [
      target.name,
      async () => {
        const status = join(dir, `${target.name}.status`);
        while (!existsSync(status)) await delay(500);
        return {
          ok: readFileSync(status, 'utf8').trim() === '0',
          log: readFileSync(join(dir, `${target.name}.log`), 'utf8'),
          // The status file's time: when the site was ready, even when nobody was waiting yet.
          readyAfter: Math.round((statSync(status).mtimeMs - started) / 1000),
        };
      },
    ]),
  );
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

async function runTarget(target, siteReady) {
  const label = `CiviCRM ${target.name}`;
  const civicrmEnv = siteEnvironment(target);
  const port = Number(civicrmEnv.CIVICRM_PORT);
  const url = `http://127.0.0.1:${port}`;
  process.stdout.write(
    `\n── ${label} (${target.timeZone}${target.restricted ? ', restricted API user' : ''})\n`,
  );
  const clock = phaseClock();
  const site = await siteReady();
  process.stdout.write(site.log);
  clock.lap(`waiting for its site (ready ${site.readyAfter} s after the suite began)`);
  try {
    if (!site.ok) return fail(label, 'civicrm.sh start failed');
    // A service left on the guide's port (an earlier run stopped midway) would answer the guide's
    // readiness check in place of the one the guide starts: say so rather than test the wrong one.
    if (target.primary && (await portAnswers(port + 3))) {
      return fail(
        label,
        `port ${port + 3}, the guide's service port, is already in use: stop what listens there`,
      );
    }
    return runTargetOnSite(target, label, civicrmEnv, url, port, clock);
  } finally {
    lines.push(`time ${label}: ${clock}`);
  }
}

/** Whether something accepts connections on the port (on 127.0.0.1). */
function portAnswers(port) {
  return new Promise((resolvePort) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolvePort(true);
    });
    socket.once('error', () => resolvePort(false));
  });
}

function runTargetOnSite(target, label, civicrmEnv, url, port, clock) {
  // The supported versions are set up by the guide, whose service stays up for the suite.
  const guide = target.primary
    ? { dir: guideDirectory(), url, site: join(civicrmEnv.CIVICRM_BASE, 'site'), port: port + 3 }
    : undefined;
  try {
    let installerOutput;
    if (guide) {
      const started = Date.now();
      const followed = followGuide('--until-stop', guide);
      const seconds = Math.round((Date.now() - started) / 1000);
      clock.lap('docs/civicrm-setup.md');
      if (!followed.ok) return fail(label, `following docs/civicrm-setup.md failed (${seconds} s)`);
      totals.passed += 1;
      lines.push(
        `ok   ${label}: docs/civicrm-setup.md followed, service started (${seconds} s)` +
          (followed.buildRestored
            ? `; its \`npm run build\` ran as written and Nx restored ${followed.buildRestored} build tasks ` +
              "from the same sources' earlier build in this copy"
            : ''),
      );
      installerOutput = readFileSync(join(guide.dir, 'crm-schema.out'), 'utf8');
    } else {
      const installed = installProduct({
        root,
        siteDir: join(civicrmEnv.CIVICRM_BASE, 'site'),
        url,
        adminKey: ADMIN_KEY,
      });
      process.stdout.write(installed.output);
      if (installed.step === 'extension') return fail(label, 'the extension did not install');
      if (!installed.ok) return fail(label, 'the schema installer failed');
      installerOutput = installed.stdout;
      clock.lap('extension and schema');
    }
    let serviceKey = ADMIN_KEY;
    if (target.restricted) {
      const user = run('bash', [join(root, 'tools', 'civicrm', 'create-api-user.sh')], {
        CIVICRM_URL: url,
        CIVICRM_API_KEY: ADMIN_KEY,
        API_USER_KEY: RESTRICTED_KEY,
      });
      if (!user.ok) return fail(label, 'the restricted API user could not be created');
      serviceKey = RESTRICTED_KEY;
    }
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
      CIVICRM_SITE: join(civicrmEnv.CIVICRM_BASE, 'site'),
      CIVICRM_DB_SOCKET: join(civicrmEnv.CIVICRM_BASE, 'run', 'mysqld.sock'),
    };
    const output = join(results, `${target.name}.json`);
    rmSync(output, { force: true });
    run(
      join(root, 'node_modules', '.bin', 'jest'),
      [
        '-c',
        'backend/test/civicrm/jest.config.cjs',
        '--ci',
        '--json',
        `--outputFile=${output}`,
        // The installer's and the API user's own checks need a site per version, not per setting.
        ...(target.primary ? [] : ['--testPathIgnorePatterns', 'schema-installer', 'api-user-permissions']),
      ],
      {
        ...suiteEnv,
        ...(guide ? { GUIDE_SERVICE_DIR: guide.dir } : {}),
        TZ: 'UTC',
        NODE_OPTIONS: '--experimental-vm-modules --disable-warning=ExperimentalWarning',
      },
      // Its spec files run one after another; on a busy machine they need more than the default 10 minutes.
      { timeoutMs: 1_800_000 },
    );
    countJest(`${label}: routes over HTTP`, output);
    clock.lap('jest');
    // The extension's own checks (civicrm-extension/tests): on every site but the restricted
    // user's, which adds nothing to them.
    if (target.restricted) return;
    const extensionTests = run(
      'bash',
      [join(root, 'civicrm-extension', 'tests', 'run.sh')],
      {
        CIVICRM_URL: url,
        CIVICRM_SITE: suiteEnv.CIVICRM_SITE,
        CIVICRM_API_KEY: ADMIN_KEY,
        CIVICRM_ADMIN_USER: 'admin',
        CIVICRM_ADMIN_PASS: 'admin123pass',
        CIVICRM_EXPECT_TIMEZONE: target.timeZone,
      },
      { capture: true },
    );
    process.stdout.write(extensionTests.stdout + extensionTests.stderr);
    const extensionCount = /(\d+) passed, (\d+) failed/.exec(extensionTests.stdout);
    if (extensionCount) {
      totals.passed += Number(extensionCount[1]);
      totals.failed += Number(extensionCount[2]);
      lines.push(`${extensionTests.ok ? 'ok  ' : 'FAIL'} ${label}: extension ${extensionCount[0]}`);
    } else if (!extensionTests.ok) {
      fail(`${label}: extension tests`);
    }
    clock.lap('extension checks');
    runExtensionUnitTests(label, url, suiteEnv.CIVICRM_SITE);
    clock.lap('PHPUnit');
    if (target.journey) {
      const journeyOutput = join(root, 'dist', 'e2e', 'civicrm-results.json');
      rmSync(journeyOutput, { force: true });
      run(
        join(root, 'node_modules', '.bin', 'playwright'),
        ['test', '-c', 'e2e/civicrm/playwright.config.ts'],
        {
          ...suiteEnv,
          PLAYWRIGHT_JSON_OUTPUT_NAME: journeyOutput,
        },
      );
      countPlaywright(`${label}: Chromium journey`, journeyOutput);
      clock.lap('Chromium journey');
    }
  } finally {
    // The guide's own last command stops the service it started, and the service is gone after it.
    const pidFile = guide && join(guide.dir, 'checkin.pid');
    if (pidFile && existsSync(pidFile)) {
      const pid = readFileSync(pidFile, 'utf8').trim();
      if (!followGuide('--stop', guide).ok) {
        fail(label, "docs/civicrm-setup.md's command to stop the service failed");
      } else if (!exited(pid)) {
        fail(label, `docs/civicrm-setup.md's command to stop the service left it running (pid ${pid})`);
        run('kill', ['-9', pid], {}, { capture: true });
      } else {
        totals.passed += 1;
        lines.push(`ok   ${label}: docs/civicrm-setup.md's stop command stopped the service`);
      }
      rmSync(pidFile, { force: true });
    }
    if (!keep) run('bash', [civicrmSh, 'stop'], civicrmEnv, { capture: true });
    clock.lap('stopping');
  }
}

/**
 * The extension's PHPUnit tests (civicrm-extension/tests/phpunit), booted inside the site the
 * extension was just installed on. PHPUnit is Debian's `phpunit` package (.ci/run installs it);
 * without it the step is skipped with a message, or fails under CI=true.
 */
function runExtensionUnitTests(label, url, site) {
  if (!run('sh', ['-c', 'command -v phpunit'], {}, { capture: true }).ok) {
    const reason = 'phpunit is not installed (apt-get install phpunit)';
    if (process.env.CI === 'true') return fail(`${label}: extension PHPUnit`, reason);
    totals.skipped += 1;
    lines.push(`skip ${label}: extension PHPUnit: ${reason}`);
    return;
  }
  const output = join(results, `phpunit-${label.replace(/\W+/g, '-')}.xml`);
  rmSync(output, { force: true });
  const phpunit = run(
    'phpunit',
    ['-c', join(root, 'civicrm-extension', 'phpunit.xml.dist'), '--log-junit', output],
    { CIVICRM_SITE: site, CIVICRM_URL: url },
    { capture: true },
  );
  process.stdout.write(phpunit.stdout + phpunit.stderr);
  if (!existsSync(output)) return fail(`${label}: extension PHPUnit`, 'no results');
  // The first <testsuite> of the JUnit report holds the totals of the whole run.
  const suite = /<testsuite\b[^>]*>/.exec(readFileSync(output, 'utf8'))?.[0] ?? '';
  const count = (name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite)?.[1] ?? 0);
  const failed = count('failures') + count('errors');
  const skipped = count('skipped');
  const passed = count('tests') - failed - skipped;
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  lines.push(
    `${failed === 0 && phpunit.ok ? 'ok  ' : 'FAIL'} ${label}: extension PHPUnit ${passed} passed, ${failed} failed` +
      (skipped ? `, ${skipped} skipped` : ''),
  );
  if (failed === 0 && !phpunit.ok)
    fail(`${label}: extension PHPUnit`, 'phpunit failed without failing a test');
}

/** Every PHP file of the extension parses (`php -l`), before any CiviCRM runs it. */
function lintExtension() {
  const files = run('find', [join(root, 'civicrm-extension'), '-name', '*.php'], {}, { capture: true })
    .stdout.split('\n')
    .filter(Boolean);
  const broken = files.filter((file) => !run('php', ['-l', file], {}, { capture: true }).ok);
  if (broken.length > 0) return fail('php -l', broken.join(', '));
  totals.passed += 1;
  lines.push(`ok   php -l on ${files.length} extension files`);
}

mkdirSync(results, { recursive: true });
if (!existsSync(civicrmSh)) {
  skipAll(`no ${civicrmSh}`);
} else if (!existsSync(join(root, 'dist', 'backend', 'crm-schema.js'))) {
  fail('real-CiviCRM suite', 'dist/backend/crm-schema.js is missing: build the back end first');
} else {
  const targets = TARGETS.filter((target) => !only || only.includes(target.name));
  const sites = startSitesInBackground(targets);
  try {
    // civicrm.sh installs PHP on first start: lint after the first instance is up.
    let linted = false;
    for (const target of targets) {
      await runTarget(target, sites[target.name]);
      if (!linted) lintExtension();
      linted = true;
    }
  } finally {
    // Each target stops its own site; this catches one whose start failed half-way, or the sites
    // started for targets an error kept from running.
    for (const target of targets) {
      await sites[target.name]();
      if (!keep) run('bash', [civicrmSh, 'stop'], siteEnvironment(target), { capture: true });
    }
  }
}

// ── The upgrade run (tools/civicrm/upgrade-run.mjs, docs/upgrading.md): release 0.1.0 set up by
// its guide on its own CiviCRM 6.14, upgraded to this tree, data, links and settings checked. Its
// build of this tree is restored from the guide copy's Nx cache (the production build above).
// Runs with the full matrix, or with --only=upgrade.
if (existsSync(civicrmSh) && (!only || only.includes('upgrade'))) {
  const cache = guideCopy ? [`--nx-cache=${join(guideCopy, '.nx', 'cache')}`] : [];
  const upgrade = run(
    process.execPath,
    [join(root, 'tools', 'civicrm', 'upgrade-run.mjs'), ...cache],
    {},
    {
      capture: true,
      timeoutMs: 1_800_000,
    },
  );
  process.stdout.write(upgrade.stdout + upgrade.stderr);
  const counted = /^(\d+) passed, (\d+) failed$/m.exec(upgrade.stdout);
  totals.passed += Number(counted?.[1] ?? 0);
  totals.failed += counted ? Number(counted[2]) : 1;
  lines.push(
    ...(upgrade.stdout
      .split('── upgrade run')[1]
      ?.split('\n')
      .filter((line) => /^(ok|FAIL|skip)/.test(line)) ?? ['FAIL upgrade run: no summary']),
  );
}

// The guide's copy holds only what its commands built (node_modules is hard-linked).
if (guideCopy && !keep) rmSync(guideCopy, { recursive: true, force: true });

process.stdout.write(`\n── real CiviCRM summary\n${lines.join('\n')}\n\n`);
process.stdout.write(
  `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}\n`,
);
process.exitCode = totals.failed === 0 ? 0 : 1;
