#!/usr/bin/env node
/**
 * The upgrade run (docs/upgrading.md, docs/releasing.md): on a fresh CiviCRM Standalone, the
 * previous release (PREVIOUS_RELEASE, checked out by its commit with `git archive`: a CI clone may
 * lack tags) is set up by its own docs/civicrm-setup.md (its tools/civicrm/follow-setup-guide.mjs),
 * in the layout docs/upgrading.md describes (releases/<name>/ and the symlink current). Through
 * that running service a co-op checks in with a file (backend/test/civicrm/upgrade.real.spec.ts,
 * UPGRADE_PHASE=before); then docs/upgrading.md's marked blocks run, installing this repository's
 * HEAD beside it and switching; then the same spec (UPGRADE_PHASE=after) proves the check-in, the
 * file, the owner link, the old file link, a pending upload receipt, a staff link and every
 * setting intact, and the new version answering. Prints `N passed, N failed` last.
 *
 *   node tools/civicrm/upgrade-run.mjs [--version=6.14|5.81] [--keep] [--site-started] [--nx-cache=DIR]
 *
 * One CiviCRM version per run (6.14 by default): a run builds the previous release from nothing
 * (its own sources), so a second version would double the longest part for little: the upgrade
 * path touches no version-specific code that the real-CiviCRM suite does not already run on both.
 * --nx-cache=DIR: Nx's cache of an earlier production build of the same sources (the real-CiviCRM
 * suite's guide copy, `/tmp/checkin-guide-<slot>/.nx/cache`): the new release's `npm run build`
 * then restores it instead of building again. HEAD is what is installed: commit first.
 * civicrm.sh and REAL_SUITE_SLOT as in tools/civicrm/real-suite.mjs (this run's site:
 * tools/civicrm/upgrade-site.mjs; the service on its port + 3). --site-started: the site was
 * installed fresh for this run (the real-CiviCRM suite starts it with its others), so it is not
 * reset first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_KEY, civicrmShPath } from '../harness/civicrm-sites.mjs';
import { guideScript } from './follow-setup-guide.mjs';
import { UPGRADE_PACKS, upgradeSite } from './upgrade-site.mjs';

/** The release upgraded from: docs/releasing.md's table (its step 7 moves this on). */
export const PREVIOUS_RELEASE = { name: '0.1.0', commit: '2525965' };

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const option = (name) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const keep = args.includes('--keep');
const siteStarted = args.includes('--site-started');
const version = option('version') ?? '6.14';
const nxCache = option('nx-cache');
if (!UPGRADE_PACKS[version]) throw new Error('--version must be 6.14 or 5.81');
const slot = Number(process.env.REAL_SUITE_SLOT ?? 0);
if (!Number.isInteger(slot) || slot < 0 || slot > 9) throw new Error('REAL_SUITE_SLOT must be 0-9');
const civicrmSh = civicrmShPath();
const home = `/tmp/checkin-upgrade-${slot}`;
const { port, env: site } = upgradeSite({ slot, version });
const url = `http://127.0.0.1:${port}`;
const servicePort = port + 3;
const totals = { passed: 0, failed: 0 };
const lines = [];
const started = Date.now();
const clock = () => `${Math.round((Date.now() - started) / 1000)} s`;

/** The environment without the caller's service settings (the guides set their own). */
function cleanEnv(extra = {}) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(CRM_|NODE_ENV$|PORT$|PUBLIC_BASE_URL$)/.test(name)),
  );
  return { ...env, ...extra };
}

function run(command, commandArgs, options = {}) {
  const result = spawnSync(command, commandArgs, {
    cwd: options.cwd ?? root,
    env: options.env ?? process.env,
    encoding: 'utf8',
    stdio: options.capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    input: options.input,
    timeout: options.timeoutMs ?? 1_200_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { ok: result.status === 0, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

function step(label, ok, detail = '') {
  if (ok) totals.passed += 1;
  else totals.failed += 1;
  lines.push(`${ok ? 'ok  ' : 'FAIL'} ${label} (${clock()})${detail ? `: ${detail}` : ''}`);
  return ok;
}

/** The spec's one phase, against the site and the settings file of the release running. */
function phase(name, settingsFile, extra = {}) {
  const output = join(home, `${name}.json`);
  run(
    join(root, 'node_modules', '.bin', 'jest'),
    [
      '-c',
      'backend/test/civicrm/jest.config.cjs',
      '--ci',
      '--json',
      `--outputFile=${output}`,
      'upgrade.real',
    ],
    {
      env: cleanEnv({
        UPGRADE_PHASE: name,
        UPGRADE_STATE: join(home, 'state.json'),
        UPGRADE_SETTINGS: settingsFile,
        CIVICRM_URL: url,
        CIVICRM_ADMIN_KEY: ADMIN_KEY,
        CIVICRM_ADMIN_USER: 'admin',
        CIVICRM_ADMIN_PASS: 'admin123pass',
        CIVICRM_TARGET: `upgrade ${version}`,
        TZ: 'UTC',
        ...extra,
      }),
    },
  );
  if (!existsSync(output)) return step(`upgrade run: ${name} the upgrade`, false, 'no results');
  const report = JSON.parse(readFileSync(output, 'utf8'));
  const failed = report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0);
  totals.passed += report.numPassedTests;
  totals.failed += failed;
  lines.push(
    `${failed === 0 && report.numPassedTests > 0 ? 'ok  ' : 'FAIL'} upgrade run: ${name} the upgrade: ` +
      `${report.numPassedTests} passed, ${failed} failed (${clock()})`,
  );
  if (report.numPassedTests === 0) totals.failed += 1;
  return failed === 0;
}

function stopService() {
  const pidFile = join(home, 'current', 'checkin.pid');
  if (!existsSync(pidFile)) return;
  const pid = readFileSync(pidFile, 'utf8').trim();
  run(
    'bash',
    [
      '-c',
      `kill ${pid} 2>/dev/null; for i in $(seq 1 30); do kill -0 ${pid} 2>/dev/null || exit 0; sleep 1; done; kill -9 ${pid}`,
    ],
    {
      capture: true,
    },
  );
}

async function main() {
  if (!existsSync(civicrmSh)) {
    const message = `upgrade run skipped: no ${civicrmSh} (CiviCRM's test pack)`;
    if (process.env.CI === 'true') return step(message, false);
    lines.push(`skip ${message}`);
    return;
  }
  rmSync(home, { recursive: true, force: true });
  const previousDir = join(home, 'releases', PREVIOUS_RELEASE.name);
  mkdirSync(previousDir, { recursive: true });
  mkdirSync(site.TMPDIR, { recursive: true });
  run('chmod', ['1777', site.TMPDIR], { capture: true });
  if (!keep && !siteStarted)
    run('bash', [civicrmSh, 'reset'], { env: { ...process.env, ...site }, capture: true });
  const started = run('bash', [civicrmSh, 'start'], { env: { ...process.env, ...site }, capture: true });
  if (!step(`CiviCRM ${version} site`, started.ok, started.ok ? '' : started.stdout.slice(-500))) return;

  // The previous release, as its users have it: its files at its commit, set up by its guide.
  const archived = run('bash', [
    '-c',
    `git archive ${PREVIOUS_RELEASE.commit} | tar -x -C "$1" && cp -al node_modules "$1/node_modules"`,
    'archive',
    previousDir,
  ]);
  symlinkSync(join('releases', PREVIOUS_RELEASE.name), join(home, 'current'));
  if (!step(`release ${PREVIOUS_RELEASE.name} (${PREVIOUS_RELEASE.commit}) checked out`, archived.ok)) return;
  const previousGuide = run(
    process.execPath,
    [
      join(previousDir, 'tools', 'civicrm', 'follow-setup-guide.mjs'),
      '--run',
      join(home, 'current'),
      '--until-stop',
    ],
    {
      cwd: join(home, 'current'),
      env: cleanEnv({
        GUIDE_CIVICRM_URL: url,
        GUIDE_CIVICRM_ADMIN_KEY: ADMIN_KEY,
        GUIDE_CIVICRM_SITE_DIR: join(site.CIVICRM_BASE, 'site'),
        GUIDE_CHECKIN_URL: `http://127.0.0.1:${servicePort}`,
        GUIDE_CHECKIN_PORT: String(servicePort),
      }),
    },
  );
  if (!step(`release ${PREVIOUS_RELEASE.name} set up by its own docs/civicrm-setup.md`, previousGuide.ok))
    return;
  const groups = Object.fromEntries(
    [
      ...readFileSync(join(previousDir, 'crm-schema.out'), 'utf8').matchAll(
        /^\s*(CRM_[A-Z_]+_CUSTOM_GROUP)=(\S+)/gm,
      ),
    ].map((match) => [match[1], match[2]]),
  );
  if (!phase('before', join(previousDir, 'checkin.env'), groups)) return;

  // This repository's HEAD, installed by docs/upgrading.md's commands as an administrator would.
  const newName = 'next';
  mkdirSync(join(home, 'releases', newName), { recursive: true });
  // What the guide's `npm install` would fetch, hard-linked (it then finds it complete).
  run('cp', ['-al', join(root, 'node_modules'), join(home, 'releases', newName, 'node_modules')], {
    capture: true,
  });
  const values = {
    CIVICRM_URL: url,
    CIVICRM_ADMIN_KEY: ADMIN_KEY,
    CIVICRM_SITE_DIR: join(site.CIVICRM_BASE, 'site'),
    CHECKIN_URL: `http://127.0.0.1:${servicePort}`,
    CHECKIN_PORT: String(servicePort),
    CHECKIN_ENV_FILE: join(home, 'checkin.env'),
    ORGANIZER_NAME: 'Olu Organizer',
    ORGANIZER_EMAIL: 'olu@example.org',
    CHECKIN_HOME: home,
    NEW_SOURCE: root,
    NEW_RELEASE: 'HEAD',
    NEW_NAME: newName,
  };
  const script = guideScript(readFileSync(join(root, 'docs', 'upgrading.md'), 'utf8'), values).replaceAll(
    'docs/civicrm-setup.md, line',
    'docs/upgrading.md, line',
  );
  const upgrade = run('bash', ['-c', script], {
    cwd: home,
    env: cleanEnv(nxCache ? { NX_CACHE_DIRECTORY: resolve(nxCache) } : {}),
    capture: true,
  });
  process.stdout.write(upgrade.stdout + upgrade.stderr);
  const restored =
    /read the output from the cache instead of running the command for (\d+) out of (\d+) tasks/.exec(
      upgrade.stdout,
    );
  if (
    !step(
      'docs/upgrading.md followed: built beside, set-up steps again, switched, health ok with the new version',
      upgrade.ok,
      restored ? `its build restored ${restored[1]} of ${restored[2]} tasks from the shared Nx cache` : '',
    )
  )
    return;
  phase('after', values.CHECKIN_ENV_FILE, groups);
}

try {
  await main();
} finally {
  stopService();
  if (!keep) {
    run('bash', [civicrmSh, 'stop'], { env: { ...process.env, ...site }, capture: true });
    rmSync(home, { recursive: true, force: true });
  }
  process.stdout.write(
    `\n── upgrade run (${PREVIOUS_RELEASE.name} → HEAD, CiviCRM ${version})\n${lines.join('\n')}\n\n`,
  );
  process.stdout.write(`${totals.passed} passed, ${totals.failed} failed\n`);
  process.exitCode = totals.failed === 0 ? 0 : 1;
}
