import {
  type BuiltProcess,
  freePort,
  startBuiltEmulator,
  startBuiltServiceWith,
} from '../../tools/harness/processes.cjs';

/** The browser suites' servers, started by the test harness (tools/harness/processes.cjs). */
export type RunningProcess = BuiltProcess;
export { freePort };

/**
 * Starts the built service (dist/backend/main.js, serving dist/frontend) on a free port and waits
 * until it answers. Stub mode unless the env names a CRM. Build first: `npx nx run-many -t build`.
 */
export function startService(env: Record<string, string> = {}): Promise<RunningProcess> {
  return startBuiltServiceWith({ NODE_ENV: 'development', LOG_FORMAT: 'json', ...env });
}

/** Starts the CiviCRM emulator bundle (dist/backend/emulator.js) on a free port, seeded with demo data. */
export async function startEmulator(
  apiKey = 'e2e-api-key-0123456789',
  /** More emulator options, e.g. `['--currency', 'CAD', '--language', 'en_CA']`. */
  extraArgs: readonly string[] = [],
): Promise<RunningProcess & { apiKey: string }> {
  return { ...(await startBuiltEmulator(apiKey, extraArgs)), apiKey };
}
