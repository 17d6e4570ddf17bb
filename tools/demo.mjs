#!/usr/bin/env node
/**
 * `npm run demo`: the service in LIVE mode against the CiviCRM emulator (the same in-memory
 * CiviCRM that stub mode uses, but over CiviCRM's HTTP wire protocol), so every request takes the
 * production code path, and a submission made in the form shows up in the report.
 *
 * Builds both apps, starts the emulator on EMULATOR_PORT (8089) and the service on PORT (3000),
 * prints the demo links, and stops both on Ctrl-C.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const port = process.env.PORT ?? '3000';
const emulatorPort = process.env.EMULATOR_PORT ?? '8089';
// A fresh key each run: the emulator and the service share it, nothing else needs it.
const apiKey = randomBytes(18).toString('base64url');
const staffKey = randomBytes(18).toString('base64url');
const publicBaseUrl = `http://localhost:${port}`;
const demo = { person: 102, org: 101, checksum: 'fe01ce2a7fbac8fafaed7c982a04e229_1767225600_inf' };

const build = spawnSync(
  join(root, 'node_modules', '.bin', 'nx'),
  ['run-many', '-t', 'build', '-p', 'frontend', 'backend', '--output-style=static'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' } },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const children = [];
function start(name, args, env) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code) => {
    console.error(`${name} stopped (${code ?? 'signal'})`);
    stopAll(code ?? 0);
  });
  children.push(child);
  return child;
}

function stopAll(code) {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}

process.once('SIGINT', () => stopAll(0));
process.once('SIGTERM', () => stopAll(0));

start('CiviCRM emulator', [
  join(root, 'dist/backend/emulator.js'),
  '--port',
  emulatorPort,
  '--api-key',
  apiKey,
]);
await waitFor(`http://127.0.0.1:${emulatorPort}/`);
start('service', [join(root, 'dist/backend/main.js')], {
  NODE_ENV: 'development',
  PORT: port,
  PUBLIC_BASE_URL: publicBaseUrl,
  CRM_BASE_URL: `http://127.0.0.1:${emulatorPort}`,
  CRM_API_KEY: apiKey,
  STAFF_REPORT_KEY: staffKey,
});
await waitFor(`http://127.0.0.1:${port}/api/health/live`);

const owner = `contactId=${demo.person}&orgId=${demo.org}&cid=${demo.person}&cs=${demo.checksum}`;
console.log(`
Live demo against the CiviCRM emulator (Ctrl-C stops both):
  form:   ${publicBaseUrl}/?${owner}
  report: ${publicBaseUrl}/report?${owner}
  staff:  ${publicBaseUrl}/staff?orgId=${demo.org}&key=${staffKey}
`);

async function waitFor(url) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  console.error(`${url} did not answer`);
  stopAll(1);
}
