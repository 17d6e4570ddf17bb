import { createDemoModel } from '../src/app/crm/in-memory/demo-data';
import { API_USER_PERMISSIONS, asApiUser } from './support/api-user';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from './support/test-app';

/**
 * Drift and unsafe settings, against the CRM emulator (docs/decisions.md, "Drift named at once"):
 * each is a finding of the site audit with the setting to change, GET /api/health answers 503 for
 * drift, readiness stays 200 (owners are still served), and the start-up log names it once.
 */
const admin = { 'X-Admin-Key': TEST_ADMIN_KEY };
const FILE_KEY = 'Qm7Rt2Vx9Lk4Wp8Zn3Bc6Hd1Fj5Gs0Ya';
const STAFF_KEY = 'St4ffL1nkK3y-0123456789abcdefghijkl';
const LINK_KEYS = { FILE_LINK_KEY: FILE_KEY, STAFF_LINK_KEY: STAFF_KEY, CRM_TIMEZONE: 'UTC' };

interface Finding {
  code: string;
  setting?: string;
  fix: string;
  message: string;
  severity: string;
  fatal: boolean;
  blocksOwners: boolean;
}

async function findingsOf(test: TestApp): Promise<{ status: number; problems: Finding[] }> {
  const response = await test.get('/api/health', admin);
  const body = (await response.json()) as { details: { deployment?: { problems: Finding[] } } };
  return { status: response.status, problems: body.details.deployment?.problems ?? [] };
}

function selfCheckLog(test: TestApp): string[] {
  return test.logs.filter((line) => line.includes('"context":"SelfCheck"'));
}

describe('drift is named at once', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });
  async function start(options: Parameters<typeof startTestApp>[0]): Promise<TestApp> {
    const test = await startTestApp(options);
    apps.push(test);
    return test;
  }

  it.each<
    [string, () => ReturnType<typeof createDemoModel>, Record<string, string>, Partial<Finding>, RegExp]
  >([
    [
      "CRM_TIMEZONE naming a zone other than the API user's",
      () => createDemoModel({ timeZone: 'UTC' }),
      { CRM_TIMEZONE: 'America/Chicago' },
      { code: 'TIME_ZONE_MISMATCH', setting: 'CRM_TIMEZONE', severity: 'drift' },
      /CRM_TIMEZONE is America\/Chicago but CiviCRM reports UTC for the API user\..*hours off/,
    ],
    [
      "FILE_LINK_KEY differing from the extension's",
      () => {
        const model = createDemoModel();
        model.extensionLinkKeys = { FILE_LINK_KEY: `${FILE_KEY}-other`, STAFF_LINK_KEY: STAFF_KEY };
        return model;
      },
      LINK_KEYS,
      { code: 'LINK_KEY_DIFFERS', setting: 'FILE_LINK_KEY', fix: 'FILE_LINK_KEY', severity: 'drift' },
      /FILE_LINK_KEY differs from the extension's setting checkin_middleware_file_link_key.*every staff file link is refused/,
    ],
    [
      "STAFF_LINK_KEY set, the extension's setting empty",
      () => {
        const model = createDemoModel();
        model.extensionLinkKeys = { FILE_LINK_KEY: FILE_KEY, STAFF_LINK_KEY: '' };
        return model;
      },
      LINK_KEYS,
      { code: 'LINK_KEY_DIFFERS', setting: 'STAFF_LINK_KEY', severity: 'drift' },
      /STAFF_LINK_KEY is set here, but the extension's setting checkin_middleware_staff_link_key is empty.*That staff key was not accepted/,
    ],
    [
      'the staff permission gone from every role',
      () => {
        const model = createDemoModel();
        model.staffPermissionRoles = [];
        return model;
      },
      LINK_KEYS,
      { code: 'STAFF_PERMISSION_UNGRANTED', fix: 'open check-in staff report', severity: 'drift' },
      /No CiviCRM role holds the permission 'CiviCRM: open check-in staff report'/,
    ],
    [
      'an extension that reports no version (older than the service needs)',
      () => {
        const model = createDemoModel();
        model.extensionVersion = null;
        return model;
      },
      LINK_KEYS,
      { code: 'EXTENSION_OUTDATED', severity: 'drift' },
      /The check-in extension is of a version that does not report itself; this service expects 1\.2\.0 or later/,
    ],
    [
      'an extension older than the service needs',
      () => {
        const model = createDemoModel();
        model.extensionVersion = '0.9.2';
        return model;
      },
      LINK_KEYS,
      { code: 'EXTENSION_OUTDATED', severity: 'drift' },
      /The check-in extension is version 0\.9\.2; this service expects 1\.2\.0 or later/,
    ],
  ])(
    '%s: logged once, GET /api/health 503 naming the setting and the fix, owners still served',
    async (_case, model, env, expected, message) => {
      const test = await start({ emulator: { model: model() }, env });
      const { status, problems } = await findingsOf(test);
      expect(status).toBe(503);
      expect(problems).toEqual([
        expect.objectContaining({
          ...expected,
          fatal: false,
          blocksOwners: false,
          message: expect.stringMatching(message),
        }),
      ]);
      expect(problems[0]?.message).toMatch(/Fix: /);
      expect(selfCheckLog(test).filter((line) => line.includes(String(expected.code)))).toHaveLength(1);
      expect((await test.get('/api/health/ready')).status).toBe(200);
    },
  );

  it('checks the link keys by a signed probe: the keys themselves never reach CiviCRM', async () => {
    const model = createDemoModel();
    model.extensionLinkKeys = { FILE_LINK_KEY: FILE_KEY, STAFF_LINK_KEY: STAFF_KEY };
    const test = await start({
      emulator: { model },
      env: { ...LINK_KEYS, SELF_CHECK_INTERVAL_SECONDS: '0' },
    });
    expect((await findingsOf(test)).problems).toEqual([]);
    const probes = test.emulator.calls.filter((call) => call.action === 'verifyKeys');
    expect(probes).toEqual([
      expect.objectContaining({
        status: 200,
        params: expect.objectContaining({
          message: expect.stringMatching(/^checkin-middleware key probe\n/),
          signatures: {
            FILE_LINK_KEY: expect.stringMatching(/^[0-9a-f]{64}$/),
            STAFF_LINK_KEY: expect.stringMatching(/^[0-9a-f]{64}$/),
          },
        }),
      }),
    ]);
    const sent = JSON.stringify(test.emulator.calls);
    expect(sent).not.toContain(FILE_KEY);
    expect(sent).not.toContain(STAFF_KEY);
  });

  it('names the group the installer created when the group setting is wrong', async () => {
    const test = await start({
      emulator: { model: createDemoModel() },
      env: { CRM_ACTIVITY_CUSTOM_GROUP: 'Check_in_data_organizing_' },
    });
    const problem = (await findingsOf(test)).problems.find((found) => found.code === 'CUSTOM_GROUP_MISSING');
    expect(problem?.message).toMatch(
      /point the setting at it: 'Check_in_data__organizing_' \(its name differs only in punctuation or letter case\): set CRM_ACTIVITY_CUSTOM_GROUP=Check_in_data__organizing_\./,
    );
    expect(problem?.message).toMatch(
      /Fix: set CRM_ACTIVITY_CUSTOM_GROUP=Check_in_data__organizing_, or create/,
    );
  });
});

describe('unsafe production settings are named', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });
  const production = {
    NODE_ENV: 'production',
    PUBLIC_BASE_URL: 'https://checkin.example.org',
    CRM_TIMEZONE: 'UTC',
  };
  async function problemsOf(options: Parameters<typeof startTestApp>[0]): Promise<Finding[]> {
    const test = await startTestApp(options);
    apps.push(test);
    return (await findingsOf(test)).problems;
  }

  it("warns, naming CRM_API_KEY, when the service uses the CiviCRM administrator's own key", async () => {
    const problems = await problemsOf({ emulator: { model: createDemoModel() }, env: production });
    expect(problems).toEqual([
      expect.objectContaining({
        code: 'CRM_KEY_IS_ADMINISTRATOR',
        setting: 'CRM_API_KEY',
        severity: 'warning',
        message: expect.stringMatching(/holding 'all CiviCRM permissions and ACLs'/),
      }),
    ]);
  });

  it('warns when the API user holds administer CiviCRM on 6.x, where nothing needs it', async () => {
    const problems = await problemsOf(
      asApiUser({ model: createDemoModel() }, [...API_USER_PERMISSIONS, 'administer CiviCRM'], production),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        code: 'CRM_KEY_IS_ADMINISTRATOR',
        message: expect.stringMatching(/'administer CiviCRM'/),
      }),
    ]);
  });

  it('says nothing of the documented API user', async () => {
    expect(
      await problemsOf(asApiUser({ model: createDemoModel() }, API_USER_PERMISSIONS, production)),
    ).toEqual([]);
  });

  it('refuses a plain http:// PUBLIC_BASE_URL on a host that is not this machine', async () => {
    const problems = await problemsOf(
      asApiUser({ model: createDemoModel() }, API_USER_PERMISSIONS, {
        ...production,
        PUBLIC_BASE_URL: 'http://checkin.example.org',
      }),
    );
    expect(problems).toEqual([
      expect.objectContaining({ code: 'PUBLIC_URL_NOT_HTTPS', setting: 'PUBLIC_BASE_URL', fatal: true }),
    ]);
    const loopback = await problemsOf(
      asApiUser({ model: createDemoModel() }, API_USER_PERMISSIONS, {
        ...production,
        PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
      }),
    );
    expect(loopback).toEqual([]);
  });

  it('warns, naming HOST, when it listens on every interface behind a proxy', async () => {
    const behindProxy = { ...production, TRUST_PROXY_HOPS: '1' };
    expect(
      await problemsOf(asApiUser({ model: createDemoModel() }, API_USER_PERMISSIONS, behindProxy)),
    ).toEqual([
      expect.objectContaining({ code: 'LISTENS_ON_ALL_INTERFACES', setting: 'HOST', severity: 'warning' }),
    ]);
    expect(
      await problemsOf(
        asApiUser({ model: createDemoModel() }, API_USER_PERMISSIONS, { ...behindProxy, HOST: '127.0.0.1' }),
      ),
    ).toEqual([]);
  });
});
