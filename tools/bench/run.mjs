#!/usr/bin/env node
/**
 * `npm run bench`: every benchmark, then one summary of every figure against its target.
 *
 *   build (front end, back end) → backend/bench/*.bench.ts (jest as the TypeScript runner; each
 *   starts what it measures: the service, the CRM emulator) → the links page's Lighthouse bench
 *   (when tools/bench/links-lighthouse.mjs is present) → the owner pages on a throttled phone
 *   with Lighthouse's mobile preset (tools/bench/phone.mjs) → the check-in reads on a real CiviCRM
 *   seeded with five years of data (tools/bench/crm-scale.mjs, when ../shared/civicrm is there)
 *   → every route on such a CiviCRM against its floor (tools/bench/crm-routes.mjs, likewise)
 *   → summary
 *
 * Each bench writes dist/bench/<name>.json; the summary reads their `figures` (see
 * backend/bench/bench-output.ts), prints a PASS/MISS table and writes dist/bench/summary.json.
 * Exit status 1 when a step failed or a figure missed its target.
 *
 * Options: --skip-build (reuse dist/), and any other argument goes to jest (e.g. a bench's name
 * to run only that one).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outputDir = join(root, 'dist', 'bench');
const args = process.argv.slice(2);
const skipBuild = args.includes('--skip-build');
const jestArgs = args.filter((arg) => arg !== '--skip-build');
const env = {
  ...process.env,
  NX_DAEMON: 'false',
  NX_NO_CLOUD: 'true',
  NX_TUI: 'false',
  NG_CLI_ANALYTICS: 'false',
  FORCE_COLOR: '0',
};
const failedSteps = [];

function run(label, command, commandArgs, extraEnv = {}) {
  process.stdout.write(`\n── ${label}\n`);
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    stdio: 'inherit',
    env: { ...env, ...extraEnv },
  });
  if (result.status !== 0) failedSteps.push(label);
  return result.status === 0;
}

async function runLinksLighthouseIfPresent() {
  const script = join(root, 'tools', 'bench', 'links-lighthouse.mjs');
  if (!existsSync(script)) return;
  process.stdout.write('\n── links page (Lighthouse)\n');
  try {
    const { runLinksLighthouse } = await import(pathToFileURL(script).href);
    await runLinksLighthouse();
  } catch (error) {
    failedSteps.push('links page (Lighthouse)');
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  }
}

async function runPhoneBenchIfPresent() {
  const script = join(root, 'tools', 'bench', 'phone.mjs');
  if (!existsSync(script)) return;
  process.stdout.write('\n── owner pages on a slow phone (Chromium, throttled; Lighthouse mobile)\n');
  try {
    const { runPhoneBench } = await import(pathToFileURL(script).href);
    const report = await runPhoneBench();
    for (const row of report.rows) process.stdout.write(`${JSON.stringify(row)}\n`);
  } catch (error) {
    failedSteps.push('phone');
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  }
}

// --- summary ----------------------------------------------------------------------------------
/**
 * The real-CiviCRM scale benches (docs/performance.md, "One request per page read"): each starts a
 * CiviCRM from ../shared/civicrm (CIVICRM_SH) and seeds it once, so they run only where that is.
 */
function runCrmScaleIfPossible() {
  const civicrmSh = process.env.CIVICRM_SH ?? join(root, '..', 'shared', 'civicrm', 'civicrm.sh');
  const benches = [
    ['check-in reads on a real CiviCRM with five years of data', 'crm-scale.mjs'],
    ['every route on a real CiviCRM with five years of data, against its floor', 'crm-routes.mjs'],
  ];
  for (const [what, script] of benches) {
    const label = `${what} (tools/bench/${script})`;
    if (!existsSync(civicrmSh)) {
      process.stdout.write(
        `\n── ${label}\nskipped: no ${civicrmSh} (set CIVICRM_SH to a civicrm.sh to run it)\n`,
      );
      continue;
    }
    run(label, process.execPath, [join(root, 'tools', 'bench', script)], { CIVICRM_SH: civicrmSh });
  }
}

function figuresOf(result) {
  if (Array.isArray(result.figures)) return result.figures;
  // The links page's Lighthouse report: a score per template and category, reported as measured.
  if (result.scores) {
    return Object.entries(result.scores).flatMap(([template, byCategory]) =>
      Object.entries(byCategory).map(([category, score]) => ({
        figure: `Links page Lighthouse: ${template}, ${category}`,
        value: score,
        unit: '/ 100',
        target: {},
      })),
    );
  }
  return [];
}

function verdict({ value, target }) {
  if (target.max === undefined && target.min === undefined) return '';
  const ok =
    Number.isFinite(value) &&
    (target.max === undefined || value <= target.max) &&
    (target.min === undefined || value >= target.min);
  return ok ? 'PASS' : 'MISS';
}

function describeTarget({ target, unit }) {
  if (target.max !== undefined) return `≤ ${target.max} ${unit}`;
  if (target.min !== undefined) return `≥ ${target.min} ${unit}`;
  return '(reported)';
}

function table(rows) {
  const columns = Object.keys(rows[0] ?? {});
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => String(row[column]).length)),
  );
  const line = (cells) => cells.map((cell, index) => String(cell).padEnd(widths[index])).join('  ');
  return [
    line(columns),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map((row) => line(columns.map((column) => row[column]))),
  ].join('\n');
}

function summarize() {
  const files = existsSync(outputDir)
    ? readdirSync(outputDir).filter((file) => file.endsWith('.json') && file !== 'summary.json')
    : [];
  const figures = files.flatMap((file) =>
    figuresOf(JSON.parse(readFileSync(join(outputDir, file), 'utf8'))).map((figure) => ({
      ...figure,
      bench: file.replace(/\.json$/, ''),
      result: verdict(figure),
    })),
  );
  const rows = figures.map((figure) => ({
    figure: figure.figure,
    value: `${figure.value} ${figure.unit}`,
    target: describeTarget(figure),
    result: figure.result,
  }));
  const summary = {
    at: new Date().toISOString(),
    failedSteps,
    passed: figures.filter((figure) => figure.result === 'PASS').length,
    missed: figures.filter((figure) => figure.result === 'MISS').length,
    figures,
  };
  mkdirSync(outputDir, { recursive: true });
  writeFileSync(join(outputDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(`\n── summary\n${rows.length > 0 ? table(rows) : '(no figures)'}\n`);
  process.stdout.write(
    `\n${summary.passed} figures met their target, ${summary.missed} missed` +
      `${failedSteps.length > 0 ? `; failed steps: ${failedSteps.join(', ')}` : ''}\n`,
  );
  return summary;
}

// --- run ----------------------------------------------------------------------------------------

rmSync(outputDir, { recursive: true, force: true });
if (!skipBuild) {
  run('build (front end and back end)', join(root, 'node_modules', '.bin', 'nx'), [
    'run-many',
    '-t',
    'build',
    '-p',
    'frontend',
    'backend',
    '--output-style=static',
  ]);
}
run(
  'benchmarks',
  join(root, 'node_modules', '.bin', 'jest'),
  ['-c', 'backend/bench/jest.config.cjs', ...jestArgs],
  {
    TZ: 'UTC',
    NODE_OPTIONS: '--experimental-vm-modules --disable-warning=ExperimentalWarning',
  },
);
if (jestArgs.length === 0) {
  await runLinksLighthouseIfPresent();
  await runPhoneBenchIfPresent();
  runCrmScaleIfPossible();
}
const summary = summarize();
process.exitCode = failedSteps.length === 0 && summary.missed === 0 ? 0 : 1;
