import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CrmClient } from '../../src/app/crm/crm-client';
import type { TestAppOptions } from './test-app';

const TOOLS = join(__dirname, '../../../tools/civicrm');

/**
 * A permission list of tools/civicrm (one per line, `#` comments), the lists
 * create-api-user.sh grants and docs/civicrm-setup.md documents.
 */
export function permissionList(file: string): string[] {
  return readFileSync(join(TOOLS, file), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** The documented API user's permissions on CiviCRM 6.14 (no administer CiviCRM, so no Setting.get). */
export const API_USER_PERMISSIONS: readonly string[] = permissionList('api-user-permissions.txt');

/** What CiviCRM 5.x needs on top of API_USER_PERMISSIONS (see the file's comment). */
export const API_USER_PERMISSIONS_5X: readonly string[] = permissionList('api-user-permissions-5.81.txt');

/**
 * The documented API user's permissions on the site `client` reaches, as create-api-user.sh grants
 * them: the 5.x additions below CiviCRM 6.
 */
export async function documentedPermissionsOf(client: Pick<CrmClient, 'api4'>): Promise<string[]> {
  const [domain] = await client.api4('Domain', 'get', { select: ['version'], limit: 1 });
  const major = Number(String(domain?.['version'] ?? '').split('.')[0]);
  return major < 6 ? [...API_USER_PERMISSIONS, ...API_USER_PERMISSIONS_5X] : [...API_USER_PERMISSIONS];
}

/** The API key of an emulated user that holds only the permissions it is given, not the test key's all. */
export const RESTRICTED_API_KEY = 'restricted-api-key-0123456789';

/**
 * startTestApp options for a service that calls the emulator as a user with these permissions
 * (the documented list unless told otherwise), with these settings on top.
 */
export function asApiUser(
  emulator: NonNullable<TestAppOptions['emulator']>,
  permissions: readonly string[] = API_USER_PERMISSIONS,
  env: Record<string, string> = {},
): TestAppOptions {
  return {
    emulator: { ...emulator, apiUsers: { [RESTRICTED_API_KEY]: { permissions: [...permissions] } } },
    env: { CRM_API_KEY: RESTRICTED_API_KEY, ...env },
  };
}
