import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { RouteRequest } from './route-requests';

export interface LoadOptions {
  /** http://host:port of the service. */
  url: string;
  connections: number;
  /** Seconds to run; ignored when `amount` is given. */
  duration?: number;
  /** Stop after this many requests. */
  amount?: number;
  timeoutSeconds?: number;
  /** Each connection cycles through these in order. */
  requests: RouteRequest[];
}

export interface LoadResult {
  durationSeconds: number;
  total: number;
  requestsPerSecond: number;
  /** Milliseconds. */
  latency: { p50: number; p99: number; max: number };
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  non2xx: number;
  /** Responses by HTTP status. */
  statusCounts: Record<string, number>;
}

const LOAD_CLIENT = join(__dirname, 'load-client.mjs');

/** Runs autocannon in a child process (load-client.mjs) and resolves with its figures. */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  // Binary bodies (uploads) cross to the load client as base64.
  const requests = options.requests.map(({ body, ...request }) =>
    Buffer.isBuffer(body) ? { ...request, bodyBase64: body.toString('base64') } : { ...request, body },
  );
  // Jest's NODE_OPTIONS (VM modules) are not the load client's business.
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  const child = spawn(process.execPath, [LOAD_CLIENT], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin.end(JSON.stringify({ ...options, requests }));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const output = Buffer.concat(stdout).toString('utf8').trim();
      if (code !== 0 || output === '') {
        reject(new Error(`load client exited with ${code}: ${Buffer.concat(stderr).toString('utf8')}`));
        return;
      }
      resolve(JSON.parse(output.split('\n').at(-1) ?? '') as LoadResult);
    });
  });
}
