import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the harness is plain CommonJS the .mjs benches load by path too (docs/architecture.md, "Where to change")
import {
  type BuiltProcess,
  freePort,
  startBuiltEmulator,
  startBuiltServiceWith,
  watch,
} from '../../../../tools/harness/processes.cjs';
import { TEST_ADMIN_KEY, TEST_API_KEY, TEST_RECEIPT_KEY, TEST_STAFF_KEY } from '../../support/test-app';

/**
 * The built service and the built CRM emulator as the reliability suites and the benches run them
 * (started by the harness, tools/harness/processes.cjs): in processes of their own,
 * their CPU time and memory can be read from /proc without the test's or benchmark's own work
 * mixed in, and they run at full speed (jest runs code in a vm context that makes every global
 * lookup much slower than in an ordinary process).
 */

export { type BuiltProcess, freePort, startBuiltEmulator, watch };

const ROOT = join(__dirname, '..', '..', '..', '..');
const FRONTEND_STAND_IN = join(ROOT, 'backend', 'test', 'fixtures', 'frontend-dist');

/**
 * Starts the service as deployed (NODE_ENV=production: JSON logs, request logging on) against
 * the CRM at `crm.baseUrl`, and waits until /api/health/live answers.
 */
export async function startBuiltService(
  crm: { baseUrl: string; apiKey: string },
  env: Record<string, string> = {},
): Promise<BuiltProcess> {
  return startBuiltServiceWith({
    NODE_ENV: 'production',
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
  });
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
