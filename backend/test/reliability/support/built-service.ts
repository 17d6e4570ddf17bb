import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { TEST_ADMIN_KEY, TEST_API_KEY, TEST_RECEIPT_KEY, TEST_STAFF_KEY } from '../../support/test-app';

/**
 * The built service (dist/backend/main.js) and the built CRM emulator (dist/backend/emulator.js),
 * each in a process of its own: their CPU time and memory can be read from /proc without the
 * test's or benchmark's own work mixed in, and they run at full speed (jest runs code in a vm
 * context that makes every global lookup much slower than in an ordinary process).
 */

const ROOT = join(__dirname, '..', '..', '..', '..');
const MAIN = join(ROOT, 'dist', 'backend', 'main.js');
const EMULATOR = join(ROOT, 'dist', 'backend', 'emulator.js');
const FRONTEND_STAND_IN = join(ROOT, 'backend', 'test', 'fixtures', 'frontend-dist');

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

/** Builds the back end when dist/backend/main.js is missing (`npm test` and `npm run bench` build first). */
function ensureBackendBuilt(): void {
  if (existsSync(MAIN)) return;
  execFileSync(join(ROOT, 'node_modules', '.bin', 'nx'), ['build', 'backend', '--output-style=static'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
  });
}

/**
 * Starts the service as deployed (NODE_ENV=production: JSON logs, request logging on) against
 * the CRM at `crm.baseUrl`, and waits until /api/health/live answers.
 */
export async function startBuiltService(
  crm: { baseUrl: string; apiKey: string },
  env: Record<string, string> = {},
): Promise<BuiltProcess> {
  ensureBackendBuilt();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      NODE_ENV: 'production',
      PORT: String(port),
      PUBLIC_BASE_URL: url,
      CRM_BASE_URL: crm.baseUrl,
      CRM_API_KEY: crm.apiKey,
      STAFF_REPORT_KEY: TEST_STAFF_KEY,
      ADMIN_KEY: TEST_ADMIN_KEY,
      UPLOAD_RECEIPT_KEY: TEST_RECEIPT_KEY,
      // A production start refuses to run without a built front end; these suites exercise the
      // API only, so a one-page stand-in spares them (and `nx run backend:test-reliability`) the
      // front end's build.
      FRONTEND_DIST: FRONTEND_STAND_IN,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return watch(child, url, `${url}/api/health/live`);
}

/** Starts the CRM emulator, seeded with the demo data, on a free port. */
export async function startBuiltEmulator(apiKey: string): Promise<BuiltProcess> {
  ensureBackendBuilt();
  const port = await freePort();
  const child = spawn(process.execPath, [EMULATOR, '--port', String(port), '--api-key', apiKey], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = `http://127.0.0.1:${port}`;
  // Any HTTP answer (a 404 for the bare address) means it listens.
  return watch(child, url, url);
}

/**
 * The built emulator and the built service against it, started before the suite's tests and
 * stopped after them. Read `service` and `emulator` inside tests: they are set by beforeAll.
 */
export function useBuiltServiceWithEmulator(env: Record<string, string> = {}): {
  service: BuiltProcess;
  emulator: BuiltProcess;
} {
  const running = {} as { service: BuiltProcess; emulator: BuiltProcess };
  beforeAll(async () => {
    running.emulator = await startBuiltEmulator(TEST_API_KEY);
    running.service = await startBuiltService({ baseUrl: running.emulator.url, apiKey: TEST_API_KEY }, env);
  }, 180_000);
  afterAll(async () => {
    await running.service?.stop();
    await running.emulator?.stop();
  });
  return running;
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

// --- /proc ------------------------------------------------------------------------------------

let clockTicks: number | undefined;

/** Kernel clock ticks per second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat times. */
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    const reported = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    clockTicks = Number.isFinite(reported) && reported > 0 ? reported : 100;
  }
  return clockTicks;
}

/** User plus system CPU time the process has used, in milliseconds. */
export function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields from after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const userTicks = Number(fields[11]);
  const systemTicks = Number(fields[12]);
  return ((userTicks + systemTicks) * 1000) / ticksPerSecond();
}

export interface ProcessMemory {
  /** Resident set size now, MiB. */
  rssMiB: number;
  /** Highest resident set size since start (or the last resetPeakMemory), MiB. */
  peakMiB: number;
}

export function processMemory(pid: number): ProcessMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

/** Resets VmHWM to the current RSS (Linux: writing 5 to clear_refs). */
export function resetPeakMemory(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}
