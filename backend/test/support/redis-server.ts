import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the harness is plain CommonJS the .mjs benches load by path too (docs/architecture.md, "Where to change")
import { freePort } from '../../../tools/harness/processes.cjs';

export const REDIS_SERVER = '/usr/bin/redis-server';
export const haveRedis = existsSync(REDIS_SERVER);

export interface RedisServer {
  url: string;
  /** The test's own connection, for looking inside. */
  inspector: Redis;
  stop(): Promise<void>;
}

/** A throwaway redis-server on a free port: nothing saved to disk, stopped by the test. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
  });
  const url = `redis://127.0.0.1:${port}`;
  const inspector = new Redis(url, { connectionName: 'test-inspector' });
  return {
    url,
    inspector,
    stop: async () => {
      inspector.disconnect();
      child.kill('SIGTERM');
      await exited;
    },
  };
}
