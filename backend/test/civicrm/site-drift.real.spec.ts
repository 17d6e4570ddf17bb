import { bootService, TEST_ADMIN_KEY, type RunningService } from '../support/test-app';
import {
  adminClient,
  type CiviCrmSite,
  serviceSettings,
  siteFromEnvironment,
  TEST_FILE_LINK_KEY,
} from './civicrm-site';

/**
 * Drift named at once, on a real CiviCRM (docs/decisions.md, "Drift named at once"): the zone,
 * either link key differing from the extension's (the signed probe of
 * civicrm-extension/Civi/Api4/Action/CheckinMiddleware/VerifyKeys.php), the staff permission gone
 * from every role, the extension disabled. Each is a finding GET /api/health answers 503 for,
 * naming the setting and the fix; the site is put back as it was after each.
 */
const site = siteFromEnvironment();
const describeReal = site ? describe : describe.skip;

const STAFF_LINK_KEY = 'real-suite-staff-link-key-Hd1Fj5Gs0YaQm7Rt2Vx9';
const STAFF_PERMISSION = 'open check-in staff report';
const KEY_SETTINGS = ['checkin_middleware_file_link_key', 'checkin_middleware_staff_link_key'];
const admin = { 'X-Admin-Key': TEST_ADMIN_KEY };

interface Finding {
  code: string;
  setting?: string;
  fix: string;
  message: string;
  severity: string;
}

describeReal(`drift named at once on a real CiviCRM (${site?.target ?? 'none configured'})`, () => {
  const real = site as CiviCrmSite;
  const crm = site ? adminClient(real) : undefined;
  const services: RunningService[] = [];
  let saved: Record<string, unknown> = {};
  let service: RunningService;

  jest.setTimeout(300_000);

  async function start(env: Record<string, string> = {}): Promise<RunningService> {
    const started = await bootService({
      ...serviceSettings(real),
      STAFF_LINK_KEY,
      CRM_TIMEZONE: real.timeZone,
      // Every GET /api/health runs the audit again, so a change of the site shows at once.
      SELF_CHECK_INTERVAL_SECONDS: '0',
      CRM_TIMEOUT_MS: '60000',
      ...env,
    });
    services.push(started);
    return started;
  }

  async function health(from: RunningService): Promise<{ status: number; problems: Finding[] }> {
    const response = await from.get('/api/health', admin);
    const body = (await response.json()) as { details: { deployment?: { problems: Finding[] } } };
    return { status: response.status, problems: body.details.deployment?.problems ?? [] };
  }

  async function setKeys(values: Record<string, string>): Promise<void> {
    await crm?.api4('Setting', 'set', { values });
  }

  /** The roles listing the staff permission, with their permissions. */
  async function staffRoles(): Promise<Array<{ id: unknown; permissions: string[] }>> {
    const roles = (await crm?.api4('Role', 'get', { select: ['id', 'permissions'] })) ?? [];
    return roles
      .map((role) => ({ id: role['id'], permissions: (role['permissions'] as string[] | null) ?? [] }))
      .filter((role) => role.permissions.includes(STAFF_PERMISSION));
  }

  beforeAll(async () => {
    const rows = (await crm?.api4('Setting', 'get', { select: KEY_SETTINGS })) ?? [];
    saved = Object.fromEntries(rows.map((row) => [String(row['name']), row['value'] ?? '']));
    await setKeys({
      checkin_middleware_file_link_key: TEST_FILE_LINK_KEY,
      checkin_middleware_staff_link_key: STAFF_LINK_KEY,
    });
    // A staff role as docs/civicrm-setup.md sets one up, so the permission is held somewhere.
    if ((await staffRoles()).length === 0) {
      await crm?.api4('Role', 'create', {
        values: {
          name: 'checkin_drift_staff',
          label: 'Check-in drift staff',
          permissions: [STAFF_PERMISSION],
        },
      });
    }
    service = await start();
  });

  afterAll(async () => {
    await Promise.all(services.map((started) => started.close()));
    await crm
      ?.api4('Role', 'delete', { where: [['name', '=', 'checkin_drift_staff']] })
      .catch(() => undefined);
    await setKeys(Object.fromEntries(Object.entries(saved).map(([name, value]) => [name, String(value)])));
    await crm?.close();
  });

  it('finds no drift on the site as set up', async () => {
    expect(await health(service)).toEqual({ status: 200, problems: [] });
  });

  it("names CRM_TIMEZONE when it is not the API user's zone", async () => {
    const other = real.timeZone === 'America/Chicago' ? 'UTC' : 'America/Chicago';
    const skewed = await start({ CRM_TIMEZONE: other });
    const { status, problems } = await health(skewed);
    expect(status).toBe(503);
    expect(problems).toEqual([
      expect.objectContaining({
        code: 'TIME_ZONE_MISMATCH',
        setting: 'CRM_TIMEZONE',
        message: expect.stringContaining(
          `CRM_TIMEZONE is ${other} but CiviCRM reports ${real.timeZone} for the API user`,
        ),
      }),
    ]);
    expect((await skewed.get('/api/health/ready')).status).toBe(200);
  });

  it("names FILE_LINK_KEY when the extension's key differs, and STAFF_LINK_KEY when the extension has none", async () => {
    try {
      await setKeys({
        checkin_middleware_file_link_key: `${TEST_FILE_LINK_KEY}-rotated`,
        checkin_middleware_staff_link_key: '',
      });
      const { status, problems } = await health(service);
      expect(status).toBe(503);
      expect(problems).toEqual([
        expect.objectContaining({
          code: 'LINK_KEY_DIFFERS',
          setting: 'FILE_LINK_KEY',
          message: expect.stringContaining(
            "FILE_LINK_KEY differs from the extension's setting checkin_middleware_file_link_key",
          ),
        }),
        expect.objectContaining({
          code: 'LINK_KEY_DIFFERS',
          setting: 'STAFF_LINK_KEY',
          message: expect.stringContaining(
            "the extension's setting checkin_middleware_staff_link_key is empty",
          ),
        }),
      ]);
      expect((await service.get('/api/health/ready')).status).toBe(200);
    } finally {
      await setKeys({
        checkin_middleware_file_link_key: TEST_FILE_LINK_KEY,
        checkin_middleware_staff_link_key: STAFF_LINK_KEY,
      });
    }
    expect((await health(service)).problems).toEqual([]);
  });

  it('names the staff permission when no role holds it any more', async () => {
    const holders = await staffRoles();
    expect(holders.length).toBeGreaterThan(0);
    try {
      for (const role of holders) {
        await crm?.api4('Role', 'update', {
          where: [['id', '=', role.id]],
          values: { permissions: role.permissions.filter((name) => name !== STAFF_PERMISSION) },
        });
      }
      const { status, problems } = await health(service);
      expect(status).toBe(503);
      expect(problems).toEqual([
        expect.objectContaining({ code: 'STAFF_PERMISSION_UNGRANTED', fix: STAFF_PERMISSION }),
      ]);
    } finally {
      for (const role of holders) {
        await crm?.api4('Role', 'update', {
          where: [['id', '=', role.id]],
          values: { permissions: role.permissions },
        });
      }
    }
    expect((await health(service)).problems).toEqual([]);
  });

  it('refuses a wrong custom group name naming the group the installer created', async () => {
    const actual = real.groups.activity;
    // The other spelling of the same name: with or without the doubled underscore CiviCRM munges away.
    const wrong = actual.includes('__')
      ? actual.replace('__', '_')
      : actual.replace('_organizing', '__organizing');
    const misnamed = await start({ CRM_ACTIVITY_CUSTOM_GROUP: wrong });
    const { status, problems } = await health(misnamed);
    expect(status).toBe(503);
    expect(problems).toContainEqual(
      expect.objectContaining({
        code: 'CUSTOM_GROUP_MISSING',
        setting: 'CRM_ACTIVITY_CUSTOM_GROUP',
        fatal: true,
        message: expect.stringContaining(
          `Fix: set CRM_ACTIVITY_CUSTOM_GROUP=${actual}, or create the schema`,
        ),
      }),
    );
  });

  it('names the extension when it is disabled, and readiness takes the service out', async () => {
    const holders = await staffRoles();
    try {
      await crm?.api3('Extension', 'disable', { keys: 'checkin_middleware' });
      const { status, problems } = await health(service);
      expect(status).toBe(503);
      expect(problems).toContainEqual(
        expect.objectContaining({
          code: 'EXTENSION_MISSING',
          message: expect.stringContaining(
            "the extension 'checkin_middleware' is not installed or is disabled",
          ),
        }),
      );
      expect((await service.get('/api/health/ready')).status).toBe(503);
    } finally {
      await crm?.api3('Extension', 'enable', { keys: 'checkin_middleware' });
      // Enabling again may drop the extension's permission from the roles (the drift above).
      for (const role of holders) {
        await crm?.api4('Role', 'update', {
          where: [['id', '=', role.id]],
          values: { permissions: role.permissions },
        });
      }
    }
    expect((await health(service)).problems).toEqual([]);
  });
});
