import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { siteFromEnvironment } from './civicrm-site';

/**
 * Set-up steps run again must not break a working deployment (docs/upgrading.md): the API-user
 * step keeps the working key unless asked to rotate it, and the extension, disabled and enabled
 * again, gives the staff roles "open check-in staff report" back.
 */
const ROOT = join(__dirname, '../../..');
const site = siteFromEnvironment();
const siteDir = process.env['CIVICRM_SITE'];
const describeSite = site && siteDir ? describe : describe.skip;
const run = promisify(execFile);

/** CiviCRM keeps 32 characters of a key. */
const newKey = () => `upk${randomUUID().replace(/-/g, '').slice(0, 29)}`;

async function api4(entity: string, action: string, params: unknown, key = site?.adminKey ?? '') {
  const response = await fetch(`${site?.url}/civicrm/ajax/api4/${entity}/${action}`, {
    method: 'POST',
    headers: {
      'X-Civi-Auth': `Bearer ${key}`,
      'X-Requested-With': 'XMLHttpRequest',
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ params: JSON.stringify(params) }).toString(),
  });
  return {
    status: response.status,
    body: (await response.json().catch(() => ({}))) as { values?: unknown[] },
  };
}

/** Whether CiviCRM lets `key` in (one read). */
async function keyWorks(key: string): Promise<boolean> {
  return (await api4('Contact', 'get', { select: ['id'], limit: 1 }, key)).status === 200;
}

async function createApiUser(key: string, ...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const result = await run(join(ROOT, 'tools/civicrm/create-api-user.sh'), args, {
      env: {
        ...process.env,
        CIVICRM_URL: site?.url,
        CIVICRM_API_KEY: site?.adminKey,
        API_USER_KEY: key,
        API_USER_NAME: 'checkin-upkeep-test',
        API_USER_ROLE: 'checkin_upkeep_test',
      },
    });
    return { code: 0, output: result.stdout + result.stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

async function api3(entity: string, action: string, json: unknown) {
  const response = await fetch(`${site?.url}/civicrm/ajax/rest`, {
    method: 'POST',
    headers: { 'X-Civi-Auth': `Bearer ${site?.adminKey}`, 'X-Requested-With': 'XMLHttpRequest' },
    body: new URLSearchParams({ entity, action, json: JSON.stringify(json) }),
  });
  return (await response.json()) as { is_error: number };
}

describeSite(`set-up steps run again (${site?.target ?? ''})`, () => {
  jest.setTimeout(300_000);

  it('the API-user step keeps the working key; --rotate replaces it', async () => {
    const first = newKey();
    const second = newKey();
    expect((await createApiUser(first)).code).toBe(0);
    // The guide's step run again, as a permission fix message asks: same key, still working.
    expect((await createApiUser(first)).code).toBe(0);
    expect(await keyWorks(first)).toBe(true);
    // Another key without --rotate: the role is fixed, the working key kept, the run says so.
    const refused = await createApiUser(second);
    expect(refused.code).toBe(3);
    expect(refused.output).toContain('keeps its key');
    expect(await keyWorks(first)).toBe(true);
    expect(await keyWorks(second)).toBe(false);
    // Asked to rotate: the new key works, the old one no longer.
    expect((await createApiUser(second, '--rotate')).code).toBe(0);
    expect(await keyWorks(second)).toBe(true);
    expect(await keyWorks(first)).toBe(false);
  });

  it("disabling and enabling the extension gives the staff role 'open check-in staff report' back", async () => {
    const role = `checkin_upkeep_staff_${Date.now()}`;
    const permission = 'open check-in staff report';
    const created = await api4('Role', 'create', {
      values: {
        name: role,
        label: 'Check-in upkeep test staff',
        permissions: ['access CiviCRM', permission],
      },
    });
    expect(created.status).toBe(200);
    const permissions = async () =>
      (
        (await api4('Role', 'get', { select: ['permissions'], where: [['name', '=', role]] })).body
          .values?.[0] as {
          permissions: string[];
        }
      ).permissions;

    expect((await api3('Extension', 'disable', { keys: 'checkin_middleware' })).is_error).toBe(0);
    await api4('System', 'flush', {});
    // What CiviCRM does on its own: the disabled extension's permission is gone from every role.
    expect(await permissions()).not.toContain(permission);

    await run(join(ROOT, 'civicrm-extension/install.sh'), [
      siteDir ?? '',
      site?.url ?? '',
      site?.adminKey ?? '',
    ]);
    await api4('System', 'flush', {});
    expect(await permissions()).toContain(permission);
  });
});
