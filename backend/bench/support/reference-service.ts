import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { type BuiltProcess, freePort } from '../../test/reliability/support/built-service';

const SCRIPT = join(__dirname, 'reference-service.mjs');

export interface ReferenceServiceOptions {
  /** Full addresses of the CRM calls one form load makes. */
  crmUrls: string[];
  crmHeaders: Record<string, string>;
  /** Size of the service's answer, which the reference writes too. */
  answerBytes: number;
}

/** Starts reference-service.mjs in a process of its own and resolves once it listens. */
export async function startReferenceService(options: ReferenceServiceOptions): Promise<BuiltProcess> {
  const port = await freePort();
  const env = { ...process.env };
  // Jest's NODE_OPTIONS (VM modules) are not the reference's business.
  delete env['NODE_OPTIONS'];
  const child = spawn(process.execPath, [SCRIPT], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin.end(JSON.stringify({ port, ...options }));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`reference service exited with ${code}: ${output.join('')}`)));
  });
  return {
    pid: child.pid ?? 0,
    url: `http://127.0.0.1:${port}`,
    output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
