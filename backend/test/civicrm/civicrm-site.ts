import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CustomGroupNames } from '../../src/app/config/app-config';
import { CiviCrmHttpClient } from '../../src/app/crm/civicrm-http.client';
import type { CrmClient } from '../../src/app/crm/crm-client';
import {
  ACTIVITY_CUSTOM_GROUP,
  CONTACT_CUSTOM_GROUP,
  FORM_CONTACT_RELATIONSHIP,
} from '../../src/app/crm/crm-names';
import { wrapForSiteGroupNames } from '../../src/app/crm/site-group-names';

/** The CiviCRM under test, as tools/civicrm/real-suite.mjs describes it in the environment. */
export interface CiviCrmSite {
  url: string;
  adminKey: string;
  /** The key the service uses: the admin's, or a restricted API user's. */
  serviceKey: string;
  restricted: boolean;
  target: string;
  timeZone: string;
  groups: CustomGroupNames;
  adminUser: string;
  adminPassword: string;
}

export function siteFromEnvironment(env: NodeJS.ProcessEnv = process.env): CiviCrmSite | null {
  const url = env['CIVICRM_URL'];
  if (!url) return null;
  return {
    url,
    adminKey: env['CIVICRM_ADMIN_KEY'] ?? '',
    serviceKey: env['CIVICRM_SERVICE_KEY'] ?? env['CIVICRM_ADMIN_KEY'] ?? '',
    restricted: env['CIVICRM_RESTRICTED'] === 'true',
    target: env['CIVICRM_TARGET'] ?? 'external',
    timeZone: env['CIVICRM_TIMEZONE'] ?? 'UTC',
    groups: {
      activity: env['CRM_ACTIVITY_CUSTOM_GROUP'] ?? ACTIVITY_CUSTOM_GROUP,
      contact: env['CRM_CONTACT_CUSTOM_GROUP'] ?? CONTACT_CUSTOM_GROUP,
    },
    adminUser: env['CIVICRM_ADMIN_USER'] ?? 'admin',
    adminPassword: env['CIVICRM_ADMIN_PASS'] ?? '',
  };
}

/** The settings that point the service at the site. */
/** The key the service signs staff file links with; routes.real.spec.ts gives the extension the same. */
export const TEST_FILE_LINK_KEY = 'real-suite-file-link-key-Qm7Rt2Vx9Lk4Wp8Z';

export function serviceSettings(site: CiviCrmSite): Record<string, string> {
  return {
    CRM_BASE_URL: site.url,
    CRM_API_KEY: site.serviceKey,
    CRM_TIMEOUT_MS: '30000',
    CRM_ACTIVITY_CUSTOM_GROUP: site.groups.activity,
    CRM_CONTACT_CUSTOM_GROUP: site.groups.contact,
    CRM_FILE_ROUTE: '/civicrm/checkin-file?id={id}',
    FILE_LINK_KEY: TEST_FILE_LINK_KEY,
    RATE_LIMIT_READS_PER_MINUTE: '10000',
    RATE_LIMIT_SUBMITS_PER_MINUTE: '1000',
    RATE_LIMIT_UPLOADS_PER_MINUTE: '1000',
  };
}

/** An administrator's client, speaking the documented group names like the service does. */
export function adminClient(site: Pick<CiviCrmSite, 'url' | 'adminKey' | 'groups'>): CrmClient & {
  close(): Promise<void>;
} {
  const http = new CiviCrmHttpClient({
    baseUrl: site.url,
    apiKey: site.adminKey,
    urlStyle: 'standard',
    timeoutMs: 30_000,
    customGroups: site.groups,
  });
  const client = wrapForSiteGroupNames(http, site.groups);
  return Object.assign(client, { close: () => http.onApplicationShutdown() });
}

export interface SeededCoop {
  personId: number;
  orgId: number;
  /** An organization the person is not tied to. */
  foreignOrgId: number;
  checksum: string;
  personName: string;
  /** What makes this seed's names unique. */
  stamp: string;
}

/** A person tied to a new organization by 'Primary Contact', and an unrelated organization. */
export async function seedCoop(crm: CrmClient, label: string): Promise<SeededCoop> {
  const stamp = `${label} ${Date.now().toString(36)}`;
  const [person] = await crm.api4('Contact', 'create', {
    values: { contact_type: 'Individual', first_name: 'Ada', last_name: `Owner ${stamp}` },
  });
  const personId = Number(person?.['id']);
  await crm.api4('Email', 'create', {
    values: { contact_id: personId, email: `ada.${personId}@example.org`, is_primary: true },
  });
  const [org] = await crm.api4('Contact', 'create', {
    values: { contact_type: 'Organization', organization_name: `Riverside Food Co-op ${stamp}` },
  });
  const [foreign] = await crm.api4('Contact', 'create', {
    values: { contact_type: 'Organization', organization_name: `Hilltop Grocery ${stamp}` },
  });
  const [type] = await crm.api4('RelationshipType', 'get', {
    select: ['id'],
    where: [['name_a_b', '=', FORM_CONTACT_RELATIONSHIP]],
  });
  await crm.api4('Relationship', 'create', {
    values: {
      contact_id_a: personId,
      contact_id_b: Number(org?.['id']),
      relationship_type_id: Number(type?.['id']),
      is_active: true,
    },
  });
  const [checksum] = await crm.api4('Contact', 'getChecksum', { contactId: personId });
  return {
    personId,
    orgId: Number(org?.['id']),
    foreignOrgId: Number(foreign?.['id']),
    checksum: String(checksum?.['checksum']),
    personName: `Ada Owner ${stamp}`,
    stamp,
  };
}

/** A logged-in CiviCRM session cookie for the administrator (6.x takes `identifier`, 5.81 `username`). */
export async function logIn(site: CiviCrmSite): Promise<string> {
  for (const name of ['identifier', 'username']) {
    const response = await fetch(`${site.url}/civicrm/ajax/api4/User/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Requested-With': 'XMLHttpRequest' },
      body: new URLSearchParams({
        params: JSON.stringify({ [name]: site.adminUser, password: site.adminPassword }),
      }).toString(),
    });
    const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);
    if (response.ok && cookies.length > 0) return cookies.join('; ');
  }
  throw new Error('could not log in to CiviCRM');
}

/** Follows a file link as a logged-in browser would. */
export async function download(url: string, cookie: string): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(url, { headers: { Cookie: cookie }, redirect: 'follow' });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

export function fixture(name: string): Buffer {
  return readFileSync(join(__dirname, '..', 'fixtures', 'files', name));
}
