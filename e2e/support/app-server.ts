import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface RunningProcess {
  url: string;
  output: string[];
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

/**
 * Starts the built service (dist/backend/main.js, serving dist/frontend) on a free port and waits
 * until it answers. Stub mode unless the env names a CRM. Build first: `npx nx run-many -t build`.
 */
export async function startService(env: Record<string, string> = {}): Promise<RunningProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [join(ROOT, 'dist/backend/main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      NODE_ENV: 'development',
      PORT: String(port),
      PUBLIC_BASE_URL: url,
      LOG_FORMAT: 'json',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return watch(child, url, `${url}/api/health/live`);
}

/** Starts the CiviCRM emulator bundle (dist/backend/emulator.js) on a free port, seeded with demo data. */
export async function startEmulator(
  apiKey = 'e2e-api-key-0123456789',
  /** More emulator options, e.g. `['--currency', 'CAD', '--language', 'en_CA']`. */
  extraArgs: readonly string[] = [],
): Promise<RunningProcess & { apiKey: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    [join(ROOT, 'dist/backend/emulator.js'), '--port', String(port), '--api-key', apiKey, ...extraArgs],
    {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return { ...(await watch(child, url, null)), apiKey };
}

async function watch(child: ChildProcess, url: string, readyUrl: string | null): Promise<RunningProcess> {
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited early:\n${output.join('')}`);
    try {
      // Any HTTP answer means the server is listening.
      await fetch(readyUrl ?? url);
      break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`process did not become ready:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
