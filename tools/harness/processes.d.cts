import type { ChildProcess } from 'node:child_process';

export declare const ROOT: string;
export declare const BUILT_SERVICE: string;
export declare const BUILT_EMULATOR: string;

export interface BuiltProcess {
  pid: number;
  url: string;
  /** What it printed (the first lines of stdout, all of stderr), for a failure message; empty with a logFile. */
  output: string[];
  child: ChildProcess;
  /** Resolves with the exit code once the process has exited. */
  exitCode: Promise<number | null>;
  stop(): Promise<void>;
}

export interface ReadyOptions {
  /** Ready only on a 2xx answer (else any status under 500). */
  okOnly?: boolean;
  /** Default 30 s. */
  timeoutMs?: number;
  /** Where its stdout and stderr go instead of memory. */
  logFile?: string;
}

export interface NodeProcessOptions extends ReadyOptions {
  script: string;
  args?: readonly string[];
  /** Its whole environment besides PATH. */
  env?: Record<string, string>;
  url: string;
  /** Default `url`. */
  probeUrl?: string;
}

export interface ServiceOptions extends ReadyOptions {
  /** Default dist/backend/main.js. */
  script?: string;
  /** Default a free port. */
  port?: number;
  /** Default /api/health/live. */
  readyPath?: string;
}

export declare function freePort(): Promise<number>;
export declare function ensureBackendBuilt(): void;
export declare function startNodeProcess(options: NodeProcessOptions): Promise<BuiltProcess>;
export declare function startBuiltServiceWith(
  env: Record<string, string>,
  options?: ServiceOptions,
): Promise<BuiltProcess>;
export declare function startBuiltEmulator(
  apiKey: string,
  extraArgs?: readonly string[],
): Promise<BuiltProcess>;
export declare function watch(
  child: ChildProcess,
  url: string,
  probeUrl: string,
  ready?: { okOnly?: boolean; timeoutMs?: number },
): Promise<BuiltProcess>;
