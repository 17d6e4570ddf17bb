import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

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

  it('says so when a bundle built without NODE_ENV=production is started in production', () => {
    const start = spawnSync(process.execPath, [MAIN], {
      cwd: ROOT,
      env: {
        ...bareProductionEnv,
        PORT: '0',
        CRM_BASE_URL: 'http://127.0.0.1:9',
        CRM_API_KEY: 'crm-api-key-0123456789',
        STAFF_REPORT_KEY: 'staff-key-0123456789',
        ADMIN_KEY: 'admin-key-0123456789',
        UPLOAD_RECEIPT_KEY: 'receipt-key-0123456789-0123456789-0123',
      },
      encoding: 'utf8',
      // Started and listening is all this needs; the service runs until stopped.
      timeout: 8_000,
      killSignal: 'SIGTERM',
    });
    expect(`${start.stdout}${start.stderr}`).toMatch(/development build, not a production one/);
  }, 20_000);
});
