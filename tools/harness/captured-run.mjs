/**
 * A command run without holding up the suite's other lane: its output goes to a file, not a pipe,
 * so a command that prints a lot never waits on a reader that is busy elsewhere. Answers
 * `{ ok, stdout, stderr }` (stderr folded into stdout) once it has ended.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function runCaptured(command, commandArgs, { env = process.env, cwd, timeoutMs = 600_000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'checkin-run-'));
  const logFile = join(dir, 'output.log');
  const log = openSync(logFile, 'w');
  return new Promise((resolveRun) => {
    const child = spawn(command, commandArgs, { cwd, env, stdio: ['ignore', log, log] });
    closeSync(log);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const finish = (ok, extra = '') => {
      clearTimeout(timer);
      const stdout = readFileSync(logFile, 'utf8') + extra;
      rmSync(dir, { recursive: true, force: true });
      resolveRun({ ok, stdout, stderr: '' });
    };
    child.once('error', (error) => finish(false, String(error)));
    child.once('close', (code) => finish(code === 0));
  });
}
