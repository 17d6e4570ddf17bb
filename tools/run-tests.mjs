#!/usr/bin/env node
/**
 * `npm test`: every test of the repository, in one run, ending with the totals line CI reads
 * ("N passed, N failed"). Steps run in order; a failing step does not stop the others, so one
 * run shows everything that is wrong.
 *
 *   lint + type check (`npm run lint`, every project) → formatting → build (front end, back end)
 *   → back-end jest (unit and integration) → back-end reliability suites (against the fresh
 *   build) → the fake CiviCRM's jest (model, emulator) → front-end jest (under several time zones) → Playwright (Chromium: links page and
 *   check-in pages)
 *
 * The totals count tests only: a check (lint, type check, formatting, build) adds nothing when it
 * passes and one failure when it fails; the summary shows it as ok or FAIL.
 *
 * Options: --skip-build (reuse dist/), --only=<step>[,<step>] with steps lint, build, backend,
 * reliability, civicrm-fake, frontend, e2e, civicrm (the real-CiviCRM suite: tools/civicrm/real-suite.mjs).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, 'dist', 'test-results');
const args = process.argv.slice(2);
const only = args
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const skipBuild = args.includes('--skip-build');
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

function run(label, command, commandArgs, extraEnv = {}) {
  process.stdout.write(`\n── ${label}\n`);
  const started = Date.now();
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    stdio: 'inherit',
    env: { ...env, ...extraEnv },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return { ok: result.status === 0, seconds };
}

/** A step that is a check rather than a test suite: not a test, so it counts only when it fails. */
function check(label, command, commandArgs, extraEnv) {
  const { ok, seconds } = run(label, command, commandArgs, extraEnv);
  if (!ok) totals.failed += 1;
  stepLines.push(`${ok ? 'ok  ' : 'FAIL'} ${label} (${seconds} s)`);
  return ok;
}

/**
 * `rerun`: the same tests again under other conditions (another time zone). Its failures count,
 * its passes do not: the totals count each test once.
 */
function jestSuite(label, config, outputName, extraEnv = {}, extraArgs = [], rerun = false) {
  const output = join(results, `${outputName}.json`);
  rmSync(output, { force: true });
  const { ok, seconds } = run(
    label,
    jestBin,
    ['-c', config, '--ci', '--json', `--outputFile=${output}`, ...extraArgs],
    extraEnv,
  );
  countJest(label, output, ok, seconds, rerun);
}

function countJest(label, output, ok, seconds, rerun = false) {
  if (!existsSync(output)) {
    totals.failed += 1;
    stepLines.push(`FAIL ${label}: no results (${seconds} s)`);
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
  stepLines.push(
    `${ok && failed === 0 ? 'ok  ' : 'FAIL'} ${label}: ${report.numPassedTests} passed, ${failed} failed (${seconds} s)` +
      (rerun ? ' (a rerun: not added to the totals)' : ''),
  );
}

function playwrightSuite(label) {
  const output = join(root, 'dist', 'e2e', 'results.json');
  rmSync(output, { force: true });
  const { ok, seconds } = run(label, playwrightBin, ['test', '-c', 'e2e/playwright.config.ts'], {
    CI: 'true',
  });
  if (!existsSync(output)) {
    totals.failed += 1;
    stepLines.push(`FAIL ${label}: no results (${seconds} s)`);
    return;
  }
  const { stats } = JSON.parse(readFileSync(output, 'utf8'));
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
  stepLines.push(
    `${ok && stats.unexpected === 0 ? 'ok  ' : 'FAIL'} ${label}: ${stats.expected + stats.flaky} passed, ${stats.unexpected} failed (${seconds} s)`,
  );
}

/** tools/civicrm/real-suite.mjs counts its own tests and ends with a totals line. */
function realCiviCrmSuite(label) {
  process.stdout.write(`\n── ${label}\n`);
  const started = Date.now();
  const result = spawnSync(process.execPath, [join(root, 'tools', 'civicrm', 'real-suite.mjs')], {
    cwd: root,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 256 * 1024 * 1024,
  });
  process.stdout.write(result.stdout ?? '');
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const counts = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/m.exec(
    (result.stdout ?? '').trim().split('\n').pop() ?? '',
  );
  if (!counts) {
    totals.failed += 1;
    stepLines.push(`FAIL ${label}: no totals (${seconds} s)`);
    return;
  }
  const [passed, failed, skipped] = [Number(counts[1]), Number(counts[2]), Number(counts[3] ?? 0)];
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  stepLines.push(
    `${failed === 0 ? 'ok  ' : 'FAIL'} ${label}: ${passed} passed, ${failed} failed (${seconds} s)`,
  );
}

const wants = (step) => !only || only.includes(step);
mkdirSync(results, { recursive: true });

const npmBin = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const backendJestEnv = {
  TZ: 'UTC',
  NODE_OPTIONS: '--experimental-vm-modules --disable-warning=ExperimentalWarning',
};
let built = false;

if (wants('lint')) {
  // The same command as `npm run lint`: lint and type check of every project (backend, frontend, libs, e2e, tools).
  check('lint and type check (npm run lint)', npmBin, ['run', '--silent', 'lint']);
  check('formatting (prettier --check .)', join(root, 'node_modules', '.bin', 'prettier'), ['--check', '.']);
}
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
if (wants('backend')) {
  jestSuite('back end (unit and integration)', 'backend/jest.config.cjs', 'backend', backendJestEnv);
}
if (wants('reliability') || wants('backend')) {
  // These start dist/backend/main.js: without this run's build (--only without build), build it
  // now, so a stale dist/ never passes. --skip-build says dist/ is current.
  if (!built && !skipBuild) {
    built = check('build (back end, for the reliability suites)', nxBin, [
      'build',
      'backend',
      '--output-style=static',
    ]);
  }
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
if (wants('civicrm-fake')) {
  jestSuite('fake CiviCRM (model and emulator)', 'libs/civicrm-fake/jest.config.cjs', 'civicrm-fake', {
    TZ: 'UTC',
  });
}
if (wants('frontend')) {
  FRONTEND_TIME_ZONES.forEach((zone, index) => {
    jestSuite(
      `front end (TZ=${zone})`,
      'frontend/jest.config.cjs',
      `frontend-${zone.replace('/', '-')}`,
      { TZ: zone },
      [],
      index > 0,
    );
  });
}
if (wants('e2e')) {
  playwrightSuite('end to end (Chromium)');
}
if (wants('civicrm')) {
  realCiviCrmSuite('real CiviCRM (6.14, 5.81, America/Chicago, restricted API user)');
}

process.stdout.write(`\n── summary\n${stepLines.join('\n')}\n\n`);
process.stdout.write(
  `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}\n`,
);
process.exitCode = totals.failed === 0 ? 0 : 1;
