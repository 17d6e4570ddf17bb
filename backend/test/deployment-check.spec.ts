import { createDemoModel } from '../src/app/crm/in-memory/demo-data';
import { API_USER_PERMISSIONS, asApiUser } from './support/api-user';
import { DEMO_LINK, ownerQuery, startTestApp, TEST_ADMIN_KEY, type TestApp } from './support/test-app';

const DEMO_LINK_QUERY = ownerQuery(DEMO_LINK);

/**
 * Each broken set-up of docs/civicrm-setup.md, against the CRM emulator: the start-up log names
 * it once, GET /api/health (admin key) names the setting or permission to change, and
 * /api/health/ready answers 503 while it would make owner routes fail.
 */
const admin = { 'X-Admin-Key': TEST_ADMIN_KEY };

interface Problem {
  code: string;
  fix: string;
  message: string;
  fatal: boolean;
  blocksOwners: boolean;
}

interface HealthBody {
  details: { deployment?: { status: string; problems: Problem[]; timeZone?: Record<string, unknown> } };
}

async function deploymentOf(
  test: TestApp,
): Promise<{ status: number; problems: Problem[]; body: HealthBody }> {
  const response = await test.get('/api/health', admin);
  const body = (await response.json()) as HealthBody;
  return { status: response.status, problems: body.details.deployment?.problems ?? [], body };
}

async function readinessOf(test: TestApp): Promise<{ status: number; body: string }> {
  const response = await test.get('/api/health/ready');
  return { status: response.status, body: await response.text() };
}

/** Self-check lines of the start-up log (JSON lines, context SelfCheck). */
function selfCheckLog(test: TestApp): string[] {
  return test.logs.filter((line) => line.includes('"context":"SelfCheck"'));
}

function withoutPermission(permission: string): readonly string[] {
  return API_USER_PERMISSIONS.filter((granted) => granted !== permission);
}

describe('the deployment self-check names each broken set-up', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });

  async function start(options: Parameters<typeof startTestApp>[0]): Promise<TestApp> {
    const test = await startTestApp(options);
    apps.push(test);
    return test;
  }

  it('finds nothing wrong with the documented set-up, and says so', async () => {
    const test = await start(
      asApiUser({ model: createDemoModel() }, API_USER_PERMISSIONS, { CRM_TIMEZONE: 'UTC' }),
    );
    const deployment = await deploymentOf(test);
    expect(deployment.problems).toEqual([]);
    expect(deployment.status).toBe(200);
    expect(deployment.body.details.deployment).toMatchObject({
      status: 'up',
      civicrmVersion: '6.14.alpha1',
      extensionVersion: '1.2.0',
      timeZone: { inUse: 'UTC', source: 'setting', crmReports: 'UTC', crmReportedAtStart: 'UTC' },
      customGroups: { activity: 'Check_in_data__organizing_', contact: 'Food_Co_op_Organizing' },
    });
    expect((await readinessOf(test)).status).toBe(200);
    expect(selfCheckLog(test)).toEqual([]);
  });

  it.each<[string, Parameters<typeof startTestApp>[0], Partial<Problem>, RegExp]>([
    [
      'the extension disabled',
      { emulator: { model: createDemoModel({ extensionInstalled: false }) } },
      { code: 'EXTENSION_MISSING', fatal: true, blocksOwners: true },
      /extension 'checkin_middleware' is not installed or is disabled/,
    ],
    [
      'a permission missing (access uploaded files)',
      asApiUser({ model: createDemoModel() }, withoutPermission('access uploaded files')),
      { code: 'PERMISSION_MISSING', fix: 'access uploaded files', fatal: true, blocksOwners: true },
      /lacks the CiviCRM permission 'access uploaded files'/,
    ],
    [
      'a permission missing (view all activities)',
      asApiUser({ model: createDemoModel() }, withoutPermission('view all activities')),
      { code: 'PERMISSION_MISSING', fix: 'view all activities', fatal: true, blocksOwners: true },
      /lacks the CiviCRM permission 'view all activities'/,
    ],
    [
      'a wrong key',
      { emulator: { model: createDemoModel() }, env: { CRM_API_KEY: 'not-the-key-0123456789' } },
      { code: 'CRM_KEY_INVALID', fix: 'CRM_API_KEY', fatal: true, blocksOwners: true },
      /knows no user with the key in CRM_API_KEY \(HTTP 401 'Invalid credential'\)/,
    ],
    [
      'a key whose user lacks authenticate with api key',
      asApiUser({ model: createDemoModel() }, withoutPermission('authenticate with api key')),
      { code: 'CRM_KEY_NOT_PERMITTED', fix: 'authenticate with api key', fatal: true, blocksOwners: true },
      /give the API user the permission 'authenticate with api key', or set CRM_SITE_KEY/,
    ],
    [
      'a wrong group name',
      {
        emulator: { model: createDemoModel() },
        env: { CRM_ACTIVITY_CUSTOM_GROUP: 'Check_in_data_organizing_' },
      },
      { code: 'CUSTOM_GROUP_MISSING', fix: 'CRM_ACTIVITY_CUSTOM_GROUP', fatal: true, blocksOwners: true },
      /The custom group 'Check_in_data_organizing_' \(CRM_ACTIVITY_CUSTOM_GROUP\) does not exist/,
    ],
  ])(
    '%s: logged once at start, named by /api/health, readiness 503',
    async (_case, options, expected, message) => {
      const test = await start(options);
      const logged = selfCheckLog(test);
      expect(logged.filter((line) => line.includes(String(expected.code)))).toHaveLength(1);
      expect(logged.join('\n')).toMatch(message);

      const deployment = await deploymentOf(test);
      expect(deployment.status).toBe(503);
      expect(deployment.problems).toContainEqual(
        expect.objectContaining({ ...expected, message: expect.stringMatching(message) }),
      );

      const ready = await readinessOf(test);
      expect(ready.status).toBe(503);
      expect(ready.body).toContain(String(expected.code));

      // Probes and health answer from the report: no new line for the same problem.
      await readinessOf(test);
      expect(selfCheckLog(test)).toEqual(logged);
    },
  );

  it('on 5.81 with neither FILE_LINK_KEY nor CRM_FILE_ROUTE: names FILE_LINK_KEY, owners still served', async () => {
    const test = await start({
      emulator: { model: createDemoModel({ civicrmVersion: '5.81' }) },
      env: { CRM_TIMEZONE: 'UTC' },
    });
    const deployment = await deploymentOf(test);
    expect(deployment.problems).toEqual([
      expect.objectContaining({
        code: 'FILE_ROUTE_UNSET',
        fix: 'FILE_LINK_KEY',
        fatal: false,
        blocksOwners: false,
        message: expect.stringMatching(/checkin_middleware_file_link_key/),
      }),
    ]);
    expect((await readinessOf(test)).status).toBe(200);
  });

  it("on 5.81 with CRM_FILE_ROUTE naming the site's own route: staff links use that route, nothing to fix", async () => {
    const test = await start({
      emulator: { model: createDemoModel({ civicrmVersion: '5.81' }) },
      env: { CRM_TIMEZONE: 'UTC', CRM_FILE_ROUTE: '/civicrm/file?id={id}' },
    });
    const deployment = await deploymentOf(test);
    expect(deployment.problems).toEqual([]);
    expect(deployment.body.details.deployment).toMatchObject({
      fileLinks: 'the route in CRM_FILE_ROUTE (/civicrm/file?id={id})',
    });
  });

  it.each([
    ['5.81', '/civicrm/checkin-file?id={id}'],
    ['6.14', '/civicrm/checkin-file?id={id}'],
    ['6.14', '?civiwp=CiviCRM&q=civicrm/checkin-file&id={id}'],
  ] as const)(
    "on %s with CRM_FILE_ROUTE %s (the extension's route) but no FILE_LINK_KEY: names FILE_LINK_KEY, owners still served",
    async (civicrmVersion, route) => {
      const test = await start({
        emulator: { model: createDemoModel({ civicrmVersion }) },
        env: { CRM_TIMEZONE: 'UTC', CRM_FILE_ROUTE: route },
      });
      const deployment = await deploymentOf(test);
      expect(deployment.problems).toEqual([
        expect.objectContaining({
          code: 'FILE_LINK_KEY_MISSING',
          fix: 'FILE_LINK_KEY',
          fatal: false,
          blocksOwners: false,
          message: expect.stringMatching(/checkin_middleware_file_link_key/),
        }),
      ]);
      expect(selfCheckLog(test).filter((line) => line.includes('FILE_LINK_KEY_MISSING'))).toHaveLength(1);
      expect((await readinessOf(test)).status).toBe(200);
    },
  );

  it("with CRM_FILE_ROUTE the extension's route and FILE_LINK_KEY set (the guide's settings): nothing to fix", async () => {
    const test = await start({
      emulator: { model: createDemoModel({ civicrmVersion: '5.81' }) },
      env: {
        CRM_TIMEZONE: 'UTC',
        CRM_FILE_ROUTE: '/civicrm/checkin-file?id={id}',
        FILE_LINK_KEY: 'Qm7Rt2Vx9Lk4Wp8Zn3Bc6Hd1Fj5Gs0Ya',
      },
    });
    const deployment = await deploymentOf(test);
    expect(deployment.problems).toEqual([]);
    expect(deployment.body.details.deployment).toMatchObject({
      fileLinks: "the extension's route, signed with FILE_LINK_KEY (/civicrm/checkin-file?id={id})",
    });
  });

  it('tells owners which refusal it is: a key without the sign-in permission has its own code', async () => {
    const test = await start(
      asApiUser({ model: createDemoModel() }, withoutPermission('authenticate with api key')),
    );
    const response = await test.get(`/api/data?${DEMO_LINK_QUERY}`);
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ code: 'CRM_KEY_NOT_PERMITTED' });
  });

  it('tells owners a wrong key with the credentials code', async () => {
    const test = await start({
      emulator: { model: createDemoModel() },
      env: { CRM_API_KEY: 'not-the-key-0123456789' },
    });
    const response = await test.get(`/api/data?${DEMO_LINK_QUERY}`);
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ code: 'CRM_CREDENTIALS_REFUSED' });
  });

  it("detects a change of the API user's zone, reports it, and keeps reading stored check-ins in the zone it started with", async () => {
    const model = createDemoModel({ timeZone: 'UTC' });
    const test = await start({ emulator: { model }, env: { SELF_CHECK_INTERVAL_SECONDS: '0' } });
    const report = async () => (await test.get(`/api/report?${DEMO_LINK_QUERY}`)).json();
    const before = await report();
    expect((await deploymentOf(test)).problems).toEqual([]);

    model.setTimeZone('America/Chicago');

    const deployment = await deploymentOf(test);
    expect(deployment.problems).toEqual([
      expect.objectContaining({
        code: 'TIME_ZONE_CHANGED',
        fix: 'CRM_TIMEZONE',
        fatal: false,
        blocksOwners: false,
        message: expect.stringMatching(
          /changed from UTC \(when this service started\) to America\/Chicago\. Check-ins are still read and written as UTC/,
        ),
      }),
    ]);
    expect(deployment.body.details.deployment?.timeZone).toEqual({
      inUse: 'UTC',
      source: 'extension',
      crmReports: 'America/Chicago',
      crmReportedAtStart: 'UTC',
    });
    expect(await report()).toEqual(before);
    const logged = selfCheckLog(test).filter((line) => line.includes('TIME_ZONE_CHANGED'));
    expect(logged).toHaveLength(1);
    // Owners are still served: the zone in use did not move.
    expect((await readinessOf(test)).status).toBe(200);

    model.setTimeZone('UTC');
    await deploymentOf(test);
    expect(selfCheckLog(test).some((line) => line.includes('Resolved: TIME_ZONE_CHANGED'))).toBe(true);
  });
});
