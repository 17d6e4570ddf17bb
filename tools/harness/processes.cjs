/**
 * The test and bench harness's process starters: the built service (dist/backend/main.js), the
 * built CRM emulator (dist/backend/emulator.js) and any other server script, each in a process of
 * its own on a free port, awaited until it answers and stopped with SIGTERM. CommonJS with its
 * types in processes.d.cts, so the jest suites (ts-jest compiles to CommonJS), the Playwright
 * suites and the plain .mjs benches all load the same file. Real CiviCRM sites: civicrm-sites.mjs.
 */
const { execFileSync, spawn } = require('node:child_process');
const { closeSync, existsSync, openSync } = require('node:fs');
const { createServer } = require('node:net');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const BUILT_SERVICE = join(ROOT, 'dist', 'backend', 'main.js');
const BUILT_EMULATOR = join(ROOT, 'dist', 'backend', 'emulator.js');

/** @returns {Promise<number>} a free TCP port on the loopback interface. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Builds the back end when dist/backend/main.js is missing (`npm test` and `npm run bench` build first). */
function ensureBackendBuilt() {
  if (existsSync(BUILT_SERVICE)) return;
  execFileSync(join(ROOT, 'node_modules', '.bin', 'nx'), ['build', 'backend', '--output-style=static'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
  });
}

/**
 * A Node script in a process of its own, resolved once `probeUrl` answers. Its environment is
 * PATH plus `env` only, so a caller's settings never leak into a measured process unasked.
 * @param {import('./processes.cjs').NodeProcessOptions} options
 */
async function startNodeProcess({ script, args = [], env = {}, url, probeUrl = url, logFile, ...ready }) {
  const logFd = logFile === undefined ? undefined : openSync(logFile, 'w');
  const child = spawn(process.execPath, [script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: logFd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', logFd, logFd],
  });
  if (logFd !== undefined) closeSync(logFd);
  return watch(child, url, probeUrl, ready);
}

/**
 * The built service (or `script`, e.g. tools/build/start-production.mjs) on `port` (else a free
 * one) with `env` (PORT and PUBLIC_BASE_URL are its own), waited for until `readyPath` answers.
 * @param {Record<string, string>} env
 * @param {import('./processes.cjs').ServiceOptions} [options]
 */
async function startBuiltServiceWith(
  env,
  { script = BUILT_SERVICE, port, readyPath = '/api/health/live', ...rest } = {},
) {
  ensureBackendBuilt();
  const listenOn = port ?? (await freePort());
  const url = `http://127.0.0.1:${listenOn}`;
  return startNodeProcess({
    script,
    env: { PORT: String(listenOn), PUBLIC_BASE_URL: url, ...env },
    url,
    probeUrl: `${url}${readyPath}`,
    ...rest,
  });
}

/**
 * The built emulator, seeded with the demo data; `extraArgs` e.g. `['--currency', 'CAD']`.
 * @param {string} apiKey
 * @param {readonly string[]} [extraArgs]
 */
async function startBuiltEmulator(apiKey, extraArgs = []) {
  ensureBackendBuilt();
  const port = await freePort();
  // Any HTTP answer (a 404 for the bare address) means it listens.
  return startNodeProcess({
    script: BUILT_EMULATOR,
    args: ['--port', String(port), '--api-key', apiKey, ...extraArgs],
    url: `http://127.0.0.1:${port}`,
  });
}

/**
 * Collects `child`'s output and resolves once `probeUrl` answers: with any status under 500, or
 * only with a 2xx when `okOnly` (a readiness check that says 503 until the CRM answers).
 * @param {import('node:child_process').ChildProcess} child
 * @param {string} url
 * @param {string} probeUrl
 * @param {{ okOnly?: boolean, timeoutMs?: number }} [ready]
 */
async function watch(child, url, probeUrl, { okOnly = false, timeoutMs = 30_000 } = {}) {
  /** @type {string[]} */
  const output = [];
  // Drained as production's log collector would: the cost of writing logs is the process's own.
  child.stdout?.on('data', (chunk) => output.length < 200 && output.push(chunk.toString()));
  child.stderr?.on('data', (chunk) => output.push(chunk.toString()));
  const exitCode = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  await waitUntilAnswering(child, probeUrl, output, okOnly ? 300 : 500, timeoutMs);
  return {
    pid: child.pid ?? 0,
    url,
    output,
    child,
    exitCode,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exitCode;
    },
  };
}

async function waitUntilAnswering(child, probeUrl, output, statusBelow, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited at start:\n${output.join('')}`);
    try {
      const response = await fetch(probeUrl);
      await response.body?.cancel();
      if (response.status < statusBelow) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${probeUrl} did not answer within ${timeoutMs / 1000} s:\n${output.join('')}`);
}

module.exports = {
  ROOT,
  BUILT_SERVICE,
  BUILT_EMULATOR,
  freePort,
  ensureBackendBuilt,
  startNodeProcess,
  startBuiltServiceWith,
  startBuiltEmulator,
  watch,
};
