#!/usr/bin/env node
/**
 * `npm test`: every test of the repository, in one run, ending with the totals line CI reads
 * ("N passed, N failed"). Steps run in order; a failing step does not stop the others, so one
 * run shows everything that is wrong.
 *
 *   build (front end, back end) → lint + type check (`npm run lint`, every project) → formatting
 *   → the fake CiviCRM's jest (model, emulator) → front-end jest (under several time zones)
 *   → Playwright (Chromium: links page and check-in pages) → back-end jest (unit and
 *   integration) → back-end reliability suites (against the fresh build)
 *
 * The totals count tests only: a check (lint, type check, formatting, build) adds nothing when it
 * passes and one failure when it fails; the summary shows it as ok or FAIL.
 *
 * Two things overlap, on a 2-core machine: formatting runs beside lint and type check, and the
 * real-CiviCRM suite (tools/civicrm/real-suite.mjs, CiviCRM's PHP and MariaDB) runs in the
 * background from the end of the build, beside every later step; its output is printed whole when
 * it ends. Its heaviest part (installing the sites, the production build) meets the front end's
 * jest, which times nothing out, and Chromium (one retry on CI); the back end's suites, which time
 * CRM calls out on purpose, come last, beside the suite's test phases only. The front end's reruns under other
 * time zones take the specs that depend on the clock or the zone (below), not all of them.
 * The summary lists each step with the time it started (from the start of the run) and how long it
 * took, then the wall time and the machine's load; the totals line stays last.
 *
 * Options: --skip-build (reuse dist/), --only=<step>[,<step>] with steps lint, build, backend,
 * reliability, civicrm-fake, frontend, e2e, civicrm (the real-CiviCRM suite: tools/civicrm/real-suite.mjs),
 * --serial (the real-CiviCRM suite after the others, not beside them).
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, 'dist', 'test-results');
const args = process.argv.slice(2);
const only = args
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const skipBuild = args.includes('--skip-build');
const serial = args.includes('--serial');
const runStarted = Date.now();
const loadAtStart = loadavg();
const env = {
  ...process.env,
  NX_DAEMON: 'false',
  NX_NO_CLOUD: 'true',
  NX_TUI: 'false',
  NG_CLI_ANALYTICS: 'false',
  FORCE_COLOR: '0',
};
const jestBin = join(root, 'node_modules', '.bin', 'jest');
const nxBin = join(root, 'node_modules', '.bin', 'nx');
const playwrightBin = join(root, 'node_modules', '.bin', 'playwright');
/** Dates must not move with the machine's zone: the front end's suite runs under each of these. */
const FRONTEND_TIME_ZONES = ['UTC', 'America/Los_Angeles', 'Pacific/Kiritimati'];

const totals = { passed: 0, failed: 0, skipped: 0 };
const stepLines = [];

/** `+m:ss` from the start of the run: when a step started, for the summary. */
function sinceStart(at) {
  const seconds = Math.round((at - runStarted) / 1000);
  return `+${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function elapsed(started) {
  return ((Date.now() - started) / 1000).toFixed(1);
}

function run(label, command, commandArgs, extraEnv = {}) {
  process.stdout.write(`\n── ${label}\n`);
  const started = Date.now();
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    stdio: 'inherit',
    env: { ...env, ...extraEnv },
  });
  return { ok: result.status === 0, seconds: elapsed(started), at: sinceStart(started) };
}

/** A summary line: `ok`/`FAIL`, when the step started, what it found, how long it took. */
function stepLine(ok, at, text, seconds, note = '') {
  stepLines.push(`${ok ? 'ok  ' : 'FAIL'} ${at.padStart(6)}  ${text} (${seconds} s)${note}`);
}

/** A step that is a check rather than a test suite: not a test, so it counts only when it fails. */
function check(label, command, commandArgs, extraEnv) {
  const { ok, seconds, at } = run(label, command, commandArgs, extraEnv);
  recordCheck(label, ok, seconds, at);
  return ok;
}

function recordCheck(label, ok, seconds, at) {
  if (!ok) totals.failed += 1;
  stepLine(ok, at, label, seconds);
}

/**
 * A step started in the background, its output (stdout and stderr) kept in a file until `finish`
 * prints it, so it does not interleave with the step in the foreground.
 */
function background(label, command, commandArgs, extraEnv = {}) {
  const logFile = join(results, `${label.replace(/\W+/g, '-')}.log`);
  const log = openSync(logFile, 'w');
  const started = Date.now();
  const child = spawn(command, commandArgs, {
    cwd: root,
    stdio: ['ignore', log, log],
    env: { ...env, ...extraEnv },
  });
  closeSync(log);
  const exit = new Promise((resolve) => {
    child.once('error', () => resolve(1));
    child.once('exit', (code) => resolve(code ?? 1));
  });
  return {
    at: sinceStart(started),
    /** Waits for it, prints its output under its heading; its exit status, output and seconds. */
    async finish() {
      const status = await exit;
      const seconds = elapsed(started);
      const output = readFileSync(logFile, 'utf8');
      process.stdout.write(`\n── ${label} (ran in the background from ${sinceStart(started)})\n${output}`);
      rmSync(logFile, { force: true });
      return { ok: status === 0, output, seconds };
    },
  };
}

/**
 * `rerun`: the same tests again under other conditions (another time zone). Its failures count,
 * its passes do not: the totals count each test once.
 */
function jestSuite(label, config, outputName, extraEnv = {}, extraArgs = [], rerun = false) {
  const output = join(results, `${outputName}.json`);
  rmSync(output, { force: true });
  const { ok, seconds, at } = run(
    label,
    jestBin,
    ['-c', config, '--ci', '--json', `--outputFile=${output}`, ...extraArgs],
    extraEnv,
  );
  countJest(label, output, ok, seconds, at, rerun);
}

function countJest(label, output, ok, seconds, at, rerun = false) {
  if (!existsSync(output)) {
    totals.failed += 1;
    stepLine(false, at, `${label}: no results`, seconds);
    return;
  }
  const report = JSON.parse(readFileSync(output, 'utf8'));
  if (!rerun) {
    totals.passed += report.numPassedTests;
    totals.skipped += report.numPendingTests + report.numTodoTests;
  }
  totals.failed += report.numFailedTests;
  // A suite that fails to load has no failed tests but is a failure all the same.
  const brokenSuites = report.numRuntimeErrorTestSuites ?? 0;
  totals.failed += brokenSuites;
  const failed = report.numFailedTests + brokenSuites;
  stepLine(
    ok && failed === 0,
    at,
    `${label}: ${report.numPassedTests} passed, ${failed} failed`,
    seconds,
    rerun ? ' (a rerun: not added to the totals)' : '',
  );
}

function playwrightSuite(label) {
  const output = join(root, 'dist', 'e2e', 'results.json');
  rmSync(output, { force: true });
  const { ok, seconds, at } = run(label, playwrightBin, ['test', '-c', 'e2e/playwright.config.ts'], {
    CI: 'true',
  });
  if (!existsSync(output)) {
    totals.failed += 1;
    stepLine(false, at, `${label}: no results`, seconds);
    return;
  }
  const { stats } = JSON.parse(readFileSync(output, 'utf8'));
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
  stepLine(
    ok && stats.unexpected === 0,
    at,
    `${label}: ${stats.expected + stats.flaky} passed, ${stats.unexpected} failed`,
    seconds,
  );
}

/**
 * tools/civicrm/real-suite.mjs counts its own tests and ends with a totals line; its own summary
 * (above that line) times each site's phases. Started in the background; `finish()` counts it.
 */
function startRealCiviCrmSuite(label) {
  const suite = background(label, process.execPath, [join(root, 'tools', 'civicrm', 'real-suite.mjs')]);
  process.stdout.write(`\n── ${label}: started in the background; its output follows when it ends\n`);
  return {
    async finish() {
      const { output, seconds } = await suite.finish();
      const counts = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/m.exec(
        output.trim().split('\n').pop() ?? '',
      );
      if (!counts) {
        totals.failed += 1;
        stepLine(false, suite.at, `${label}: no totals`, seconds);
        return;
      }
      const [passed, failed, skipped] = [Number(counts[1]), Number(counts[2]), Number(counts[3] ?? 0)];
      totals.passed += passed;
      totals.failed += failed;
      totals.skipped += skipped;
      stepLine(failed === 0, suite.at, `${label}: ${passed} passed, ${failed} failed`, seconds);
    },
  };
}

/**
 * The source files that read the clock or the machine's zone (Date, Intl.DateTimeFormat, local
 * getters): the front end's reruns under other zones take every spec that imports one of them,
 * directly or not (jest --findRelatedTests), and every spec that reads the clock itself. The
 * specs left out cannot see the zone.
 */
const CLOCK_OR_ZONE =
  /new Date\b|Date\.now|Date\.UTC|Date\.parse|Intl\.DateTimeFormat|toLocale(Date|Time)?String|getTimezoneOffset|\.(get|set)(UTC)?(Hours|Minutes|Date|Day|Month|FullYear)\(/;
function filesReadingTheClock(...folders) {
  const found = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && CLOCK_OR_ZONE.test(readFileSync(path, 'utf8'))) found.push(path);
    }
  };
  folders.forEach((folder) => walk(join(root, folder)));
  return found.map((path) => relative(root, path));
}

const wants = (step) => !only || only.includes(step);
mkdirSync(results, { recursive: true });

const npmBin = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const backendJestEnv = {
  TZ: 'UTC',
  NODE_OPTIONS: '--experimental-vm-modules --disable-warning=ExperimentalWarning',
};
let built = false;

if (wants('build') && !skipBuild) {
  built = check('build (front end and back end)', nxBin, [
    'run-many',
    '-t',
    'build',
    '-p',
    'frontend',
    'backend',
    '--output-style=static',
  ]);
}
// The reliability suites start dist/backend/main.js: without this run's build (--only without
// build), build it now, so a stale dist/ never passes. --skip-build says dist/ is current. Nothing
// writes dist/ after this point, so the real-CiviCRM suite can run beside the later steps.
if ((wants('reliability') || wants('backend')) && !built && !skipBuild) {
  built = check('build (back end, for the reliability suites)', nxBin, [
    'build',
    'backend',
    '--output-style=static',
  ]);
}
const realSuiteLabel =
  "real CiviCRM (6.14 on UTC; 5.81 on America/Chicago, the service as the guide's API user)";
let realSuite;
// The failed build is already counted; an older dist/ must not stand in for it.
const buildFailed = wants('build') && !skipBuild && !built;
if (wants('civicrm') && buildFailed) stepLines.push('FAIL real CiviCRM: not run, the build failed');
// The real-CiviCRM suite starts as soon as the build is done: its sites' installs and the
// production build (the heaviest part of it) then share the machine with the front end's jest,
// which times nothing out, and Chromium. The back end's suites, which time CRM calls out on
// purpose and boot many services, come last, beside the suite's test phases only (installs and a
// production build beside them made them miss their timeouts on a loaded machine).
if (wants('civicrm') && !buildFailed && !serial) realSuite = startRealCiviCrmSuite(realSuiteLabel);
// Lint and formatting after the build, so the real-CiviCRM suite, the longest step, starts first.
if (wants('lint')) {
  // Prettier (one process, mostly one core) beside `npm run lint` (the same command: lint and type
  // check of every project: backend, frontend, libs, e2e, tools).
  const formatting = background(
    'formatting (prettier --check .)',
    join(root, 'node_modules', '.bin', 'prettier'),
    ['--check', '.'],
  );
  check('lint and type check (npm run lint)', npmBin, ['run', '--silent', 'lint']);
  const { ok, seconds } = await formatting.finish();
  recordCheck('formatting (prettier --check .)', ok, seconds, formatting.at);
}
if (wants('civicrm-fake')) {
  jestSuite('fake CiviCRM (model and emulator)', 'libs/civicrm-fake/jest.config.cjs', 'civicrm-fake', {
    TZ: 'UTC',
  });
}
if (wants('frontend')) {
  const zoneDependent = filesReadingTheClock('frontend/src', 'libs/contract/src');
  FRONTEND_TIME_ZONES.forEach((zone, index) => {
    const rerun = index > 0;
    jestSuite(
      `front end (TZ=${zone}${rerun ? ', the specs that read the clock or the zone' : ''})`,
      'frontend/jest.config.cjs',
      `frontend-${zone.replace('/', '-')}`,
      { TZ: zone },
      rerun ? ['--passWithNoTests', '--findRelatedTests', ...zoneDependent] : [],
      rerun,
    );
  });
}
if (wants('e2e')) {
  playwrightSuite('end to end (Chromium)');
}
if (wants('backend')) {
  jestSuite('back end (unit and integration)', 'backend/jest.config.cjs', 'backend', backendJestEnv);
}
if (wants('reliability') || wants('backend')) {
  if (built || skipBuild) {
    jestSuite(
      'back end reliability (the built service)',
      'backend/jest.reliability.config.cjs',
      'backend-reliability',
      backendJestEnv,
    );
  } else {
    // The failed build is already counted; an older dist/ must not stand in for it.
    stepLines.push('FAIL back end reliability: not run, the build failed');
  }
}
if (wants('civicrm') && !buildFailed && serial) {
  realSuite = startRealCiviCrmSuite(realSuiteLabel);
}
await realSuite?.finish();

const wallSeconds = Math.round((Date.now() - runStarted) / 1000);
const load = (averages) => averages.map((value) => value.toFixed(2)).join(' ');
process.stdout.write(
  `\n── summary (started at +m:ss, took s)\n${stepLines.join('\n')}\n` +
    `wall time ${Math.floor(wallSeconds / 60)} min ${wallSeconds % 60} s; ` +
    `load average (1, 5, 15 min) at start ${load(loadAtStart)}, at the end ${load(loadavg())}\n\n`,
);
process.stdout.write(
  `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}\n`,
);
process.exitCode = totals.failed === 0 ? 0 : 1;
