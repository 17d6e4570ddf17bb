import type { LogLevel } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createApp } from '../../src/app/bootstrap';
import { type AppConfig, loadAppConfig } from '../../src/app/config/app-config';
import { CiviCrmEmulator } from '@checkin/civicrm-fake/emulator';
import {
  createDemoModel,
  DEMO_CHECKSUM,
  DEMO_ORG_ID,
  DEMO_PERSON_ID,
} from '../../src/app/crm/in-memory/demo-data';
import { AppLogger } from '../../src/app/logging/app-logger';

/** The demo person's own link to the demo organization, as owner routes take it. */
export const DEMO_LINK = {
  contactId: DEMO_PERSON_ID,
  orgId: DEMO_ORG_ID,
  cid: DEMO_PERSON_ID,
  cs: DEMO_CHECKSUM,
};

export const TEST_API_KEY = 'test-api-key-0123456789';
export const TEST_STAFF_KEY = 'test-staff-key-0123456789';
export const TEST_ADMIN_KEY = 'test-admin-key-0123456789';
export const TEST_RECEIPT_KEY = 'test-receipt-key-0123456789abcdefghijklmnop';

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  /** http://127.0.0.1:<port> of the service. */
  url: string;
  emulator: CiviCrmEmulator;
  /** Every line the service logged, secrets redacted as in production. */
  logs: string[];
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Settings on top of the defaults below (live mode against the emulator). */
  env?: Record<string, string>;
  emulator?: Parameters<typeof CiviCrmEmulator.start>[0];
  /** Start in stub mode: no CRM settings, no emulator traffic. */
  stub?: boolean;
}

/** The application in live mode against a CiviCRM emulator on a free port (see bootService). */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const emulator = await CiviCrmEmulator.start({
    apiKey: TEST_API_KEY,
    createModel: createDemoModel,
    ...options.emulator,
  });
  const service = await bootService({
    ...(options.stub ? {} : { CRM_BASE_URL: emulator.baseUrl, CRM_API_KEY: TEST_API_KEY }),
    ...options.env,
  });
  // The calls of the start-up self-check (health/deployment-check.ts) are not the test's.
  emulator.clearCalls();
  return {
    ...service,
    emulator,
    close: async () => {
      await service.close();
      await emulator.stop();
    },
  };
}

export type RunningService = Omit<TestApp, 'emulator'>;

/**
 * Boots the real application (same bootstrap as production) on a free port with the test
 * defaults plus `env`, and records its logs. The CRM is whatever `env` names (none: stub mode).
 */
export async function bootService(env: Record<string, string>): Promise<RunningService> {
  const settings: Record<string, string> = {
    NODE_ENV: 'test',
    PORT: '0',
    STAFF_REPORT_KEY: TEST_STAFF_KEY,
    ADMIN_KEY: TEST_ADMIN_KEY,
    UPLOAD_RECEIPT_KEY: TEST_RECEIPT_KEY,
    CRM_TIMEOUT_MS: '1000',
    // Each readiness probe asks the CRM, so faults injected by a test show at once.
    READY_PROBE_CACHE_MS: '0',
    // The deployment self-check runs once at start; a timed re-check would add CRM calls mid-test.
    SELF_CHECK_INTERVAL_SECONDS: '3600',
    LOG_FORMAT: 'json',
    LOG_REQUESTS: 'true',
    FRONTEND_DIST: 'dist/frontend/browser',
    ...env,
  };
  // The app is given this object, never process.env: one test's settings cannot reach another's app.
  const config = loadAppConfig(settings);
  const logs: string[] = [];
  const app = await createApp(config, new RecordingLogger(config, logs));
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    app,
    config,
    url,
    logs,
    get: (path, headers = {}) => fetch(`${url}${path}`, { headers }),
    post: (path, body, headers = {}) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    close: () => app.close(),
  };
}

class RecordingLogger extends AppLogger {
  constructor(
    config: AppConfig,
    private readonly lines: string[],
  ) {
    super(config);
  }

  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
  ): void {
    const write = process.stdout.write.bind(process.stdout);
    const writeError = process.stderr.write.bind(process.stderr);
    const capture = (chunk: string | Uint8Array) => {
      this.lines.push(String(chunk));
      return true;
    };
    process.stdout.write = capture as typeof process.stdout.write;
    process.stderr.write = capture as typeof process.stderr.write;
    try {
      super.printMessages(messages, context, logLevel, writeStreamType, errorStack);
    } finally {
      process.stdout.write = write;
      process.stderr.write = writeError;
    }
  }
}

/** The demo person's link parameters in the emulator's seed data. */
export function ownerQuery(params: Record<string, string | number>): string {
  return new URLSearchParams(
    Object.entries(params).map(([key, value]): [string, string] => [key, String(value)]),
  ).toString();
}

/** The front end's server build, which the test runner makes before the back end's tests. */
const FRONTEND_SERVER_ENTRY = join(
  __dirname,
  '..',
  '..',
  '..',
  'dist',
  'frontend',
  'server',
  'main.server.mjs',
);

/**
 * Fails the suite at once when the front end's server build is missing: without it every page
 * is the static index.html, which reads nothing, and a suite about rendered pages would test
 * nothing that it names.
 */
export function requireFrontendServerBuild(): void {
  beforeAll(() => {
    expect(existsSync(FRONTEND_SERVER_ENTRY)).toBe(true);
  });
}
