import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CiviCrmEmulator } from '@checkin/civicrm-fake/emulator';
import { createDemoModel } from '../src/app/crm/in-memory/demo-data';

const ROOT = join(__dirname, '..', '..');
const MAIN = join(ROOT, 'dist', 'backend', 'main.js');
const WEBPACK = join(ROOT, 'node_modules', '.bin', 'webpack-cli');

/** Only what a bare production host would have: no CRM settings at all. */
const bareProductionEnv = { PATH: process.env['PATH'] ?? '', NODE_ENV: 'production' };

function buildBackend(env: Record<string, string>) {
  return spawnSync(WEBPACK, ['build'], {
    cwd: join(ROOT, 'backend'),
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
}

const NX = join(ROOT, 'node_modules', '.bin', 'nx');
/** A key as an administrator generates one: it passes production's secret checks. */
const API_KEY = 'Qm7Vx2Lp9Rt4Wk8Ns3Jd';

/** Every setting production asks for, the CRM at `crmBaseUrl`, the front end at `frontendDist`. */
function productionEnv(crmBaseUrl: string, frontendDist: string): Record<string, string> {
  return {
    ...bareProductionEnv,
    PORT: '0',
    PUBLIC_BASE_URL: 'https://checkin.example.org',
    FRONTEND_DIST: frontendDist,
    CRM_BASE_URL: crmBaseUrl,
    CRM_API_KEY: API_KEY,
    STAFF_REPORT_KEY: 'staff-key-0123456789',
    ADMIN_KEY: 'admin-key-0123456789',
    UPLOAD_RECEIPT_KEY: 'receipt-key-0123456789-0123456789-0123',
  };
}

/**
 * Runs the built service until it exits, or stops it once its output matches `stopWhen` (or after
 * `timeoutMs`), without blocking this process.
 */
function runService(
  env: Record<string, string>,
  timeoutMs: number,
  stopWhen?: RegExp,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (stopWhen?.test(output)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('production without CRM settings', () => {
  beforeAll(() => {
    // `npm test` builds first; a lone run of this suite builds the development bundle itself.
    if (!existsSync(MAIN)) {
      const build = buildBackend({ PATH: bareProductionEnv.PATH, NODE_ENV: 'development' });
      if (build.status !== 0) throw new Error(`backend build failed:\n${build.stderr}`);
    }
  }, 120_000);

  it('refuses to start and names each missing setting', () => {
    const start = spawnSync(process.execPath, [MAIN], {
      cwd: ROOT,
      env: bareProductionEnv,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(start.status).not.toBe(0);
    expect(start.stderr).toContain('CRM_BASE_URL');
    expect(start.stderr).toContain('CRM_API_KEY');
  });

  it('refuses to start when only some are set', () => {
    const start = spawnSync(process.execPath, [MAIN], {
      cwd: ROOT,
      env: { ...bareProductionEnv, CRM_BASE_URL: 'https://crm.example.org' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(start.status).not.toBe(0);
    expect(start.stderr).toContain('CRM_API_KEY');
    expect(start.stderr).not.toContain('CRM_BASE_URL is required');
  });

  it('refuses to start with the old .env.example placeholders, a weak key or a shared one, naming each setting', () => {
    const start = spawnSync(process.execPath, [MAIN], {
      cwd: ROOT,
      env: {
        ...bareProductionEnv,
        CRM_BASE_URL: 'https://crm.example.org',
        CRM_API_KEY: 'k',
        STAFF_REPORT_KEY: '<a long random string>',
        ADMIN_KEY: 'aaaaaaaaaaaaaaaa',
        UPLOAD_RECEIPT_KEY: '<another long random string> for receipts',
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(start.status).not.toBe(0);
    expect(start.stderr).toContain('CRM_API_KEY must be at least 16 characters');
    expect(start.stderr).toContain('STAFF_REPORT_KEY is a placeholder');
    expect(start.stderr).toContain('ADMIN_KEY uses fewer than 8 different characters');
    expect(start.stderr).toContain('UPLOAD_RECEIPT_KEY is a placeholder');
  });

  it('stops the production build with a message naming them', () => {
    const build = buildBackend(bareProductionEnv);
    expect(build.status).not.toBe(0);
    expect(`${build.stdout}${build.stderr}`).toMatch(
      /missing required CRM setting\(s\) CRM_BASE_URL, CRM_API_KEY/,
    );
  }, 120_000);

  it('has no way around the production build check', () => {
    const build = buildBackend({ ...bareProductionEnv, CHECKIN_BUILD_SKIP_ENV_CHECK: '1' });
    expect(build.status).not.toBe(0);
    expect(`${build.stdout}${build.stderr}`).toMatch(
      /missing required CRM setting\(s\) CRM_BASE_URL, CRM_API_KEY/,
    );
  }, 120_000);

  it('is not skipped by Nx restoring a cached build made without NODE_ENV=production', () => {
    // `npm test` has just built (and cached) the development bundle with these same sources.
    const build = spawnSync(NX, ['build', 'backend', '--output-style=static'], {
      cwd: ROOT,
      env: { ...bareProductionEnv, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(build.status).not.toBe(0);
    expect(`${build.stdout}${build.stderr}`).toMatch(
      /missing required CRM setting\(s\) CRM_BASE_URL, CRM_API_KEY/,
    );
    expect(`${build.stdout}${build.stderr}`).not.toMatch(/existing outputs match the cache/);
  }, 130_000);
});

describe('production start', () => {
  let frontendDist: string;
  let emptyDist: string;

  beforeAll(() => {
    frontendDist = mkdtempSync(join(tmpdir(), 'checkin-frontend-'));
    writeFileSync(join(frontendDist, 'index.html'), '<!doctype html><title>check-in</title>');
    emptyDist = mkdtempSync(join(tmpdir(), 'checkin-no-frontend-'));
  });

  afterAll(() => {
    rmSync(frontendDist, { recursive: true, force: true });
    rmSync(emptyDist, { recursive: true, force: true });
  });

  it('says so when a bundle built without NODE_ENV=production is started in production', async () => {
    // An unreachable CRM is an outage, not a set-up mistake: the service starts (and is not ready).
    const start = await runService(
      productionEnv('http://127.0.0.1:9', frontendDist),
      25_000,
      /development build, not a production one/,
    );
    expect(start.output).toMatch(/development build, not a production one/);
    expect(start.output).toMatch(/CRM_UNREACHABLE/);
  }, 30_000);

  it('refuses to start without PUBLIC_BASE_URL, naming it', async () => {
    const env = productionEnv('http://127.0.0.1:9', frontendDist);
    delete env['PUBLIC_BASE_URL'];
    const start = await runService(env, 15_000);
    expect(start.code).toBe(1);
    expect(start.output).toContain(
      "Refusing to start. Invalid configuration:\n  - PUBLIC_BASE_URL is required in production: set it to the service's public address, e.g. https://checkin.example.org",
    );
  }, 20_000);

  it('refuses to start without the built front end, naming the fix', async () => {
    const start = await runService(productionEnv('http://127.0.0.1:9', emptyDist), 15_000);
    expect(start.code).toBe(1);
    expect(start.output).toContain(
      `The front end is not built: ${join(emptyDist, 'index.html')} is missing.`,
    );
    expect(start.output).toContain('Run `npm run build`');
  }, 20_000);

  it('refuses to start when the self-check finds a fatal problem, with the fix in the message', async () => {
    const emulator = await CiviCrmEmulator.start({
      apiKey: API_KEY,
      model: createDemoModel({ extensionInstalled: false }),
    });
    try {
      const start = await runService(productionEnv(emulator.baseUrl, frontendDist), 15_000);
      expect(start.code).toBe(1);
      expect(start.output).toContain(
        'Refusing to start: the deployment self-check found 1 problem(s) to fix first:',
      );
      expect(start.output).toMatch(
        /EXTENSION_MISSING \(install and enable the CiviCRM extension 'checkin_middleware' \(docs\/civicrm-setup.md, step 2\)\)/,
      );
      expect(start.output).not.toContain('listening on');
    } finally {
      await emulator.stop();
    }
  }, 20_000);

  it('refuses to start with a plain http:// PUBLIC_BASE_URL on a host that is not loopback, naming the setting', async () => {
    const emulator = await CiviCrmEmulator.start({ apiKey: API_KEY, model: createDemoModel() });
    try {
      const env = {
        ...productionEnv(emulator.baseUrl, frontendDist),
        PUBLIC_BASE_URL: 'http://checkin.example.org',
      };
      const start = await runService(env, 15_000);
      expect(start.code).toBe(1);
      expect(start.output).toContain(
        'Refusing to start: the deployment self-check found 1 problem(s) to fix first:',
      );
      expect(start.output).toMatch(
        /PUBLIC_URL_NOT_HTTPS \(PUBLIC_BASE_URL\): PUBLIC_BASE_URL \(http:\/\/checkin\.example\.org\) is plain http:\/\//,
      );
      expect(start.output).not.toContain('Listening on');
    } finally {
      await emulator.stop();
    }
  }, 20_000);
});
