import { Logger } from '@nestjs/common';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadAppConfig } from '../../src/app/config/app-config';
import { CiviCrmHttpClient } from '../../src/app/crm/civicrm-http.client';
import { desiredSchema } from '../../src/crm-schema/desired-schema';
import { runSchema } from '../../src/crm-schema/run';
import { API_USER_PERMISSIONS, API_USER_PERMISSIONS_5X, documentedPermissionsOf } from '../support/api-user';
import { startTestApp, TEST_ADMIN_KEY, TEST_STAFF_KEY, type TestApp } from '../support/test-app';

/**
 * The API user's minimal permissions, measured on a real CiviCRM Standalone (CIVICRM_URL and an
 * administrator's CIVICRM_API_KEY; the repository's extension installed). The service runs as a
 * user created by tools/civicrm/create-api-user.sh with exactly tools/civicrm/api-user-permissions.txt
 * and goes through every route; then, for each permission in turn, the role loses it and at least
 * one route must fail. So the list is enough, and nothing in it is superfluous.
 */
const url = process.env['CIVICRM_URL'];
const adminKey = process.env['CIVICRM_API_KEY'];
const ROOT = join(__dirname, '../../..');
const SCRIPT = join(ROOT, 'tools/civicrm/create-api-user.sh');
/** Measured: a role holding the value has the key's permission too (5.81: administer → access). */
const IMPLIED_BY: Readonly<Record<string, string>> = { 'access CiviCRM': 'administer CiviCRM' };

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

interface Step {
  step: string;
  status: number;
  code?: string;
}

if (!url || !adminKey) {
  describe('API user permissions on a real CiviCRM', () => {
    it.skip('needs CIVICRM_URL and CIVICRM_API_KEY (an administrator key of a Standalone test CiviCRM)', () =>
      undefined);
  });
} else {
  describe('API user permissions on a real CiviCRM', () => {
    const config = loadAppConfig({ CRM_BASE_URL: url, CRM_API_KEY: adminKey, CRM_TIMEOUT_MS: '60000' });
    if (!config.crm) throw new Error('unreachable: the CRM settings are set above');
    const admin = new CiviCrmHttpClient(config.crm);
    // CiviCRM keeps 32 characters of an API key.
    const userKey = `perm${randomUUID().replace(/-/g, '').slice(0, 28)}`;
    const groupSettings: Record<string, string> = {};
    let person = 0;
    let org = 0;
    let checksum = '';
    const missingFor = new Map<string, string[]>();
    /** The documented set for this site's version; known once the version is read. */
    let PERMISSIONS: string[] = [...API_USER_PERMISSIONS];

    jest.setTimeout(600_000);

    async function createUser(permissions: readonly string[]): Promise<void> {
      await promisify(execFile)(SCRIPT, [], {
        env: {
          ...process.env,
          CIVICRM_URL: url,
          CIVICRM_API_KEY: adminKey,
          API_USER_KEY: userKey,
          API_USER_NAME: 'checkin-permissions-test',
          API_USER_ROLE: 'checkin_permissions_test',
          API_USER_PERMISSIONS: permissions.join(','),
          API_USER_CHECK: permissions.includes('authenticate with api key') ? '1' : '0',
        },
      });
    }

    async function single(entity: string, values: Record<string, unknown>): Promise<number> {
      const [row] = await admin.api4(entity, 'create', { values });
      return Number(row?.['id']);
    }

    beforeAll(async () => {
      Logger.overrideLogger(['error']);
      PERMISSIONS = await documentedPermissionsOf(admin);
      const installed = await runSchema(
        admin,
        desiredSchema(config.crm?.customGroups ?? { activity: '', contact: '' }),
        {
          mode: 'apply',
          crmLabel: url,
        },
      );
      expect(installed.remaining).toEqual([]);
      for (const line of installed.settings) {
        const [name = '', value = ''] = line.split('=');
        groupSettings[name] = value;
      }
      const suffix = randomUUID().slice(0, 8);
      org = await single('Contact', {
        contact_type: 'Organization',
        organization_name: `Permission Co-op ${suffix}`,
      });
      person = await single('Contact', { contact_type: 'Individual', first_name: 'Perm', last_name: suffix });
      await single('Relationship', {
        contact_id_a: person,
        contact_id_b: org,
        'relationship_type_id:name': 'Primary Contact',
        is_active: true,
      });
      const [result] = await admin.api4('Contact', 'getChecksum', { contactId: person });
      checksum = String(result?.['checksum']);
    });

    afterAll(async () => {
      // Leave the test user unable to sign in, whatever happened.
      await createUser(['access CiviCRM']).catch(() => undefined);
      await admin.onApplicationShutdown();
    });

    async function withService<T>(run: (service: TestApp) => Promise<T>): Promise<T> {
      const service = await startTestApp({
        env: {
          CRM_BASE_URL: url ?? '',
          CRM_API_KEY: userKey,
          CRM_TIMEOUT_MS: '60000',
          CHECKSUM_CACHE_SECONDS: '0',
          SCHEMA_CACHE_SECONDS: '0',
          LOG_REQUESTS: 'false',
          ...groupSettings,
        },
      });
      try {
        return await run(service);
      } finally {
        await service.close();
      }
    }

    /**
     * Every route the service offers, as an owner, staff and an operator would use them. With
     * `untilFirstFailure` it stops at the first step that fails: taking a permission away only has
     * to break one route, and the rest of the journey would cost a CiviCRM request each.
     */
    async function journey(service: TestApp, { untilFirstFailure = false } = {}): Promise<Step[]> {
      const steps: Step[] = [];
      const done = () => untilFirstFailure && failed(steps).length > 0;
      const record = async (step: string, response: Response): Promise<unknown> => {
        const body = (await response.json().catch(() => null)) as { code?: string } | null;
        steps.push({ step, status: response.status, ...(body?.code ? { code: body.code } : {}) });
        return body;
      };
      const link = { cid: person, cs: checksum, contactId: person, orgId: org };
      const query = new URLSearchParams(
        Object.entries(link).map(([key, value]): [string, string] => [key, String(value)]),
      );
      await record('GET /api/data', await service.get(`/api/data?${query}`));
      if (done()) return steps;

      const form = new FormData();
      for (const [key, value] of Object.entries(link)) form.set(key, String(value));
      form.set('fieldRef', 'Certificate_of_Incorporation');
      form.set('file', new Blob([PDF], { type: 'application/pdf' }), 'certificate.pdf');
      const uploaded = (await record(
        'POST /api/upload',
        await fetch(`${service.url}/api/upload`, { method: 'POST', body: form }),
      )) as { id?: number; file_name?: string; receipt?: string } | null;
      if (done()) return steps;

      await record(
        'POST /api/submit',
        await service.post('/api/submit', {
          ...link,
          submissionId: randomUUID(),
          values: {
            Equity_share: 25,
            Steering_committee_size: 7,
            Market_study_status: 'complete',
            Organizing_focus: ['deli', 'bulk_foods'],
            // The upload's answer as it came, receipt included (README, "Uploads").
            ...(uploaded?.id ? { Certificate_of_Incorporation: uploaded } : {}),
          },
        }),
      );
      if (done()) return steps;
      const report = (await record('GET /api/report', await service.get(`/api/report?${query}`))) as {
        activities?: unknown[];
      } | null;
      if (report && (report.activities?.length ?? 0) === 0)
        steps.push({ step: 'report lists the check-in', status: 0 });
      if (done()) return steps;
      await record(
        'GET /api/staff/report',
        await service.get(`/api/staff/report?orgId=${org}`, { 'X-Staff-Key': TEST_STAFF_KEY }),
      );
      if (done()) return steps;
      await record(
        'GET /api/health',
        await service.get(`/api/health?contactId=${person}`, { 'X-Admin-Key': TEST_ADMIN_KEY }),
      );
      if (done()) return steps;

      // The service deletes a check-in only when CiviCRM saved the row but refused its custom
      // values (CiviCRM writes are not atomic), which no valid submission provokes: the same call
      // as the service makes, with the service's key, on a check-in made for the purpose.
      const doomed = await single('Activity', {
        'activity_type_id:name': 'Check-in (organizing)',
        source_contact_id: person,
        target_contact_id: [org],
        'status_id:name': 'Completed',
      });
      if (!service.config.crm) throw new Error('the service runs in live mode here');
      const user = new CiviCrmHttpClient({ ...service.config.crm, apiKey: userKey });
      try {
        await user.api4('Activity', 'delete', { where: [['id', 'IN', [doomed]]] });
        const [left] = await admin.api4('Activity', 'get', { select: ['id'], where: [['id', '=', doomed]] });
        steps.push({ step: 'Activity.delete', status: left ? 0 : 200 });
      } catch (error) {
        steps.push({
          step: 'Activity.delete',
          status: 0,
          code: error instanceof Error ? error.message : String(error),
        });
      } finally {
        await user.onApplicationShutdown();
      }
      return steps;
    }

    const failed = (steps: Step[]) => steps.filter((step) => step.status < 200 || step.status >= 300);

    it('serves every route with exactly the documented permissions', async () => {
      await createUser(PERMISSIONS);
      const steps = await withService(journey);
      expect(failed(steps)).toEqual([]);
      expect(steps.map((step) => step.step)).toEqual([
        'GET /api/data',
        'POST /api/upload',
        'POST /api/submit',
        'GET /api/report',
        'GET /api/staff/report',
        'GET /api/health',
        'Activity.delete',
      ]);
    });

    it('cannot make preview links without administer CiviCRM, and says which permission is missing', async () => {
      await createUser(PERMISSIONS.filter((permission) => permission !== 'administer CiviCRM'));
      const response = await withService((service) =>
        service.post(
          '/api/preview-link',
          { contactId: person, orgId: org },
          { 'X-Admin-Key': TEST_ADMIN_KEY },
        ),
      );
      expect(response.status).toBe(502);
      expect(JSON.stringify(await response.json())).toContain('administer CiviCRM');
      await createUser([...new Set([...PERMISSIONS, 'administer CiviCRM'])]);
      const allowed = await withService((service) =>
        service.post(
          '/api/preview-link',
          { contactId: person, orgId: org },
          { 'X-Admin-Key': TEST_ADMIN_KEY },
        ),
      );
      expect(allowed.status).toBe(200);
    });

    it.each([...API_USER_PERMISSIONS, ...API_USER_PERMISSIONS_5X])(
      'needs %s: without it some route fails (unless another permission implies it)',
      async (permission) => {
        // On 6.x the 5.x additions are not in the set: nothing to take away.
        if (!PERMISSIONS.includes(permission)) return;
        await createUser(PERMISSIONS.filter((candidate) => candidate !== permission));
        const steps = await withService((service) => journey(service, { untilFirstFailure: true }));
        const failures = failed(steps);
        missingFor.set(
          permission,
          failures.map((step) => `${step.step} ${step.status}${step.code ? ` ${step.code}` : ''}`),
        );
        const implier = IMPLIED_BY[permission];
        if (implier && PERMISSIONS.includes(implier)) expect(failures).toEqual([]);
        else expect(failures.length).toBeGreaterThan(0);
      },
    );

    afterAll(() => {
      if (missingFor.size > 0) {
        process.stdout.write(
          `\nThe first step that fails without each permission (${url}):\n` +
            [...missingFor]
              .map(([permission, steps]) => `  ${permission}: ${steps.join(', ') || 'nothing'}`)
              .join('\n') +
            '\n',
        );
      }
    });
  });
}
