import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/**
 * The test and bench harness's starters for the built service (dist/backend/main.js) and the
 * built CRM emulator (dist/backend/emulator.js), each in a process of its own on a free port,
 * awaited until it answers and stopped with SIGTERM. The reliability suites and the benches
 * (backend/test/reliability/support/built-service.ts) and the browser suites
 * (e2e/support/app-server.ts) start them through here; the in-process app of the integration
 * tests is test-app.ts, the real-CiviCRM sites tools/civicrm/sites.mjs.
 */

const ROOT = join(__dirname, '..', '..', '..');
export const BUILT_SERVICE = join(ROOT, 'dist', 'backend', 'main.js');
export const BUILT_EMULATOR = join(ROOT, 'dist', 'backend', 'emulator.js');

export interface BuiltProcess {
  pid: number;
  url: string;
  /** What it printed (the first lines of stdout, all of stderr), for a failure message. */
  output: string[];
  child: ChildProcess;
  /** Resolves with the exit code once the process has exited. */
  exitCode: Promise<number | null>;
  stop(): Promise<void>;
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
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
export function ensureBackendBuilt(): void {
  if (existsSync(BUILT_SERVICE)) return;
  execFileSync(join(ROOT, 'node_modules', '.bin', 'nx'), ['build', 'backend', '--output-style=static'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
  });
}

/**
 * The built service on a free port with `env` (PORT and PUBLIC_BASE_URL are its own), waited for
 * until /api/health/live answers. Only PATH comes from the caller's environment.
 */
export async function startBuiltServiceWith(env: Record<string, string>): Promise<BuiltProcess> {
  ensureBackendBuilt();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [BUILT_SERVICE], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', PORT: String(port), PUBLIC_BASE_URL: url, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return watch(child, url, `${url}/api/health/live`);
}

/** The built emulator, seeded with the demo data; `extraArgs` e.g. `['--currency', 'CAD']`. */
export async function startBuiltEmulator(
  apiKey: string,
  extraArgs: readonly string[] = [],
): Promise<BuiltProcess> {
  ensureBackendBuilt();
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [BUILT_EMULATOR, '--port', String(port), '--api-key', apiKey, ...extraArgs],
    { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const url = `http://127.0.0.1:${port}`;
  // Any HTTP answer (a 404 for the bare address) means it listens.
  return watch(child, url, url);
}

/** Collects `child`'s output and resolves once `probeUrl` answers with any status under 500. */
export async function watch(child: ChildProcess, url: string, probeUrl: string): Promise<BuiltProcess> {
  const output: string[] = [];
  // Drained as production's log collector would: the cost of writing logs is the process's own.
  child.stdout?.on('data', (chunk: Buffer) => output.length < 200 && output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exitCode = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await waitUntilAnswering(child, probeUrl, output);
  return {
    pid: child.pid ?? 0,
    url,
    output,
    child,
    exitCode,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exitCode;
    },
  };
}

async function waitUntilAnswering(child: ChildProcess, probeUrl: string, output: string[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited at start:\n${output.join('')}`);
    try {
      const response = await fetch(probeUrl);
      await response.body?.cancel();
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`did not start within 30 s:\n${output.join('')}`);
}
