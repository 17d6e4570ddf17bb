import type { FieldConfig, FormDataPayload, ReportPayload, StaffReportPayload } from '@checkin/contract';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { CrmClient } from '../../src/app/crm/crm-client';
import { ACTIVITY_FIELDS, CONTACT_FIELDS, crmNameOf } from '../../src/app/fields/field-config';
import {
  bootService,
  type RunningService,
  startTestApp,
  TEST_ADMIN_KEY,
  TEST_API_KEY,
  TEST_STAFF_KEY,
} from '../support/test-app';
import {
  adminClient,
  type CiviCrmSite,
  download,
  fixture,
  logIn,
  type SeededCoop,
  seedCoop,
  serviceSettings,
  siteFromEnvironment,
  TEST_FILE_LINK_KEY,
} from './civicrm-site';
import { signedFileLinks } from '../../src/app/staff-report/file-link-signature';
import { documentedPermissionsOf } from '../support/api-user';
import { linkOf, runContractScenarios, submit, upload } from './contract-scenarios';

/**
 * Every route of the service against a real CiviCRM (tools/civicrm/real-suite.mjs sets it up:
 * extension installed, schema created by the product's installer). Run for each supported
 * version, on a CRM that is not on UTC, and with an API user holding only the documented
 * permissions (CIVICRM_RESTRICTED).
 */
const site = siteFromEnvironment();
const describeReal = site ? describe : describe.skip;

describeReal(`the service against a real CiviCRM (${site?.target ?? 'none configured'})`, () => {
  const real = site as CiviCrmSite;
  let service: RunningService;
  let crm: CrmClient & { close(): Promise<void> };
  let coop: SeededCoop;
  let cookie: string;
  /** The site's own file-link key (the guide's, where the guide set the site up), put back after. */
  let siteFileLinkKey: unknown;

  beforeAll(async () => {
    crm = adminClient(real);
    // The extension serves files only through links signed with the key the service holds; set
    // before the service starts, whose self-check compares the two keys.
    const [current] = await crm.api4('Setting', 'get', { select: ['checkin_middleware_file_link_key'] });
    siteFileLinkKey = current?.['value'] ?? '';
    await crm.api4('Setting', 'set', { values: { checkin_middleware_file_link_key: TEST_FILE_LINK_KEY } });
    service = await bootService(serviceSettings(real));
    coop = await seedCoop(crm, real.target);
    cookie = await logIn(real);
  });

  afterAll(async () => {
    // The service the guide started signs with the site's key: later specs download through it.
    if (siteFileLinkKey !== undefined) {
      await crm.api4('Setting', 'set', { values: { checkin_middleware_file_link_key: siteFileLinkKey } });
    }
    await service?.close();
    await crm?.close();
  });

  it('loads the form data for a valid link and refuses a wrong checksum and a foreign organization', async () => {
    const data = await service.get(`/api/data?${linkOf(coop)}`);
    expect(data.status).toBe(200);
    const payload = (await data.json()) as FormDataPayload;
    expect(payload.contact).toMatchObject({ first_name: 'Ada', email: `ada.${coop.personId}@example.org` });
    expect(
      (await service.get(`/api/data?${linkOf({ ...coop, checksum: `${coop.checksum}0` })}`)).status,
    ).toBe(401);
    expect((await service.get(`/api/data?${linkOf({ ...coop, orgId: coop.foreignOrgId })}`)).status).toBe(
      403,
    );
  });

  it('stores the exact bytes of an upload, under the name CiviCRM gives it', async () => {
    for (const [name, fixtureName, type] of [
      ['market study.pdf', 'sample.pdf', 'application/pdf'],
      ['storefront.png', 'sample.png', 'image/png'],
    ] as const) {
      const response = await upload(service, coop, name, fixtureName, type);
      expect(response.status).toBe(201);
      const file = (await response.json()) as { id: number; file_name: string };
      const [stored] = await crm.api4('File', 'get', {
        select: ['file_name'],
        where: [['id', '=', file.id]],
      });
      expect(file.file_name).toBe(stored?.['file_name']);
      expect(file.file_name).not.toContain(' ');
      // The route serves only files an organization or a check-in holds: attach it first.
      await crm.api4('Contact', 'update', {
        where: [['id', '=', coop.orgId]],
        values: {
          [crmNameOf(CONTACT_FIELDS.find((field) => field.type === 'file') as FieldConfig)]: file.id,
        },
      });
      const link = signedFileLinks([file.id], {
        baseUrl: real.url,
        key: TEST_FILE_LINK_KEY,
        nowSeconds: Math.floor(Date.now() / 1000),
      }).get(file.id);
      const unsigned = await download(`${real.url}/civicrm/checkin-file?id=${file.id}`, cookie);
      expect(unsigned.status).toBe(403);
      const fetched = await download(String(link), cookie);
      expect(fetched.status).toBe(200);
      expect(fetched.bytes.equals(fixture(fixtureName))).toBe(true);
    }
  });

  it('records every field type as sent, once, whatever the retries', async () => {
    const data = (await (await service.get(`/api/data?${linkOf(coop)}`)).json()) as FormDataPayload;
    const certificate = (await (
      await upload(service, coop, 'certificate.pdf', 'sample.pdf', 'application/pdf')
    ).json()) as {
      id: number;
    };
    const plan = (await (
      await upload(service, coop, 'plan.pdf', 'sample.pdf', 'application/pdf', 'Business_plan')
    ).json()) as {
      id: number;
    };
    const files: Record<string, { id: number }> = {
      Certificate_of_Incorporation: certificate,
      Business_plan: plan,
    };
    const values: Record<string, unknown> = {};
    for (const field of [...CONTACT_FIELDS, ...ACTIVITY_FIELDS]) {
      const value = sampleValue(field, data.options[field.name] ?? [], files);
      if (value !== undefined) values[field.name] = value;
    }
    const submissionId = randomUUID();
    const first = await submit(service, coop, values, submissionId);
    expect(first.status).toBe(201);
    const answer = (await first.json()) as { activityId: number; submittedAt: string };
    const retry = await submit(service, coop, values, submissionId);
    expect(retry.status).toBe(201);
    expect(await retry.json()).toEqual(answer);

    // The instant is right whatever the CRM's zone: within a minute of now.
    expect(Math.abs(Date.parse(answer.submittedAt) - Date.now())).toBeLessThan(60_000);

    const activityFields = ACTIVITY_FIELDS.filter((field) => values[field.name] !== undefined);
    const [activity] = await crm.api4('Activity', 'get', {
      select: activityFields.map(crmNameOf),
      where: [['id', '=', answer.activityId]],
    });
    for (const field of activityFields) expectStored(field, activity?.[crmNameOf(field)], values[field.name]);
    const contactFields = CONTACT_FIELDS.filter((field) => values[field.name] !== undefined);
    const [organization] = await crm.api4('Contact', 'get', {
      select: contactFields.map(crmNameOf),
      where: [['id', '=', coop.orgId]],
    });
    for (const field of contactFields)
      expectStored(field, organization?.[crmNameOf(field)], values[field.name]);

    const copies = await crm.api4('Activity', 'get', {
      select: ['id'],
      where: [
        ['target_contact_id', 'CONTAINS', coop.orgId],
        ['activity_type_id:name', '=', 'Check-in (organizing)'],
      ],
    });
    expect(copies).toHaveLength(1);

    const report = (await (await service.get(`/api/report?${linkOf(coop)}`)).json()) as ReportPayload;
    expect(report.activities[0]?.id).toBe(answer.activityId);
    expect(report.activities[0]?.date).toBe(answer.submittedAt);
    expect(report.fieldHistory['Steering_committee_size']?.[0]?.value).toBe(
      values['Steering_committee_size'],
    );

    const staff = await service.get(`/api/staff/report?orgId=${coop.orgId}`, {
      'X-Staff-Key': TEST_STAFF_KEY,
    });
    expect(staff.status).toBe(200);
    const staffReport = (await staff.json()) as StaffReportPayload;
    expect(staffReport.submissions[0]?.recordedBy).toBe(coop.personName);
    const fileValues = staffReport.sections
      .flatMap((section) => section.fields)
      .map((row) => row.latest)
      .filter(
        (value): value is { id: number; file_name?: string; url?: string } =>
          typeof value === 'object' && value !== null && !Array.isArray(value),
      );
    expect(fileValues.map((file) => file.id).sort()).toEqual([certificate.id, plan.id].sort());
    for (const file of fileValues) {
      expect(file.file_name).toMatch(/\.pdf$/);
      const link = file.url
        ? new URL(file.url, `${real.url}/`).toString()
        : `${real.url}${(staffReport.fileRouteTemplate ?? '').replace('{id}', String(file.id))}`;
      const fetched = await download(link, cookie);
      expect(fetched.status).toBe(200);
      expect(fetched.bytes.equals(fixture('sample.pdf'))).toBe(true);
    }
  });

  it('refuses values CiviCRM cannot store, and leaves no check-in behind', async () => {
    const before = await checkinCount(crm, coop.orgId);
    for (const values of [{ Interest_list_size: 3_000_000_000 }, { Equity_raised: 12.345 }]) {
      const response = await submit(service, coop, values);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        fields: [Object.keys(values)[0]],
      });
    }
    expect(await checkinCount(crm, coop.orgId)).toBe(before);
  });

  it('refuses markup in text answers, and CiviCRM shows markup stored by other means escaped', async () => {
    const payload = '<img id="checkin-xss" src=x onerror="alert(document.cookie)">';
    const before = await checkinCount(crm, coop.orgId);
    const refusedSubmit = await submit(service, coop, { Organizing_notes: `Met the board. ${payload}` });
    expect(refusedSubmit.status).toBe(400);
    expect(await refusedSubmit.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: ['Organizing_notes'],
      problems: { Organizing_notes: 'TEXT_HAS_MARKUP' },
    });
    expect(await checkinCount(crm, coop.orgId)).toBe(before);

    // A value an earlier version (or another integration) stored: the extension escapes it on display.
    const accepted = await submit(service, coop, { Organizing_notes: 'Met the board.' });
    const { activityId } = (await accepted.json()) as { activityId: number };
    await crm.api4('Activity', 'update', {
      where: [['id', '=', activityId]],
      values: {
        [crmNameOf(ACTIVITY_FIELDS.find((field) => field.name === 'Organizing_notes') as FieldConfig)]:
          payload,
      },
    });
    const view = await fetch(
      `${real.url}/civicrm/activity?action=view&reset=1&id=${activityId}&cid=${coop.orgId}`,
      { headers: { Cookie: cookie } },
    );
    const html = await view.text();
    expect(view.status).toBe(200);
    expect(html).not.toContain('<img id="checkin-xss"');
    // 5.81's activity view lists no custom data for the check-in (its template skips the block), so
    // there is nothing to find escaped there; 6.x shows it, and must show it as text.
    if (html.includes('crm-activity-form-block-custom_data')) {
      expect(html).toContain('&lt;img id=&quot;checkin-xss&quot;');
    }
  });

  const withDatabase = process.env['CIVICRM_DB_SOCKET'] ? it : it.skip;

  withDatabase('removes the empty check-in CiviCRM saves when it refuses the values', async () => {
    // A site whose database column is narrower than the field's type (a hand-altered table):
    // the insert of the custom values fails after the activity row is saved.
    const [field] = await crm.api4('CustomField', 'get', {
      select: ['column_name', 'custom_group_id.table_name'],
      where: [
        ['name', '=', 'Interest_list_size'],
        ['custom_group_id:name', '=', 'Check_in_data__organizing_'],
      ],
    });
    const alter = (type: string) =>
      sql(
        `ALTER TABLE ${String(field?.['custom_group_id.table_name'])} MODIFY ${String(field?.['column_name'])} ${type}`,
      );
    alter('SMALLINT');
    try {
      const before = await checkinCount(crm, coop.orgId);
      const response = await submit(service, coop, { Interest_list_size: 40_000 });
      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({ code: 'ACTIVITY_NOT_SAVED' });
      expect(await checkinCount(crm, coop.orgId)).toBe(before);
    } finally {
      alter('INT');
    }
  });

  it('answers health checks', async () => {
    expect((await service.get('/api/health/ready')).status).toBe(200);
    const diagnostics = await service.get(`/api/health?contactId=${coop.personId}`, {
      'X-Admin-Key': TEST_ADMIN_KEY,
    });
    expect(diagnostics.status).toBe(200);
  });

  it('makes preview links that open the form, or names the permission it lacks', async () => {
    const response = await service.post(
      '/api/preview-link',
      { contactId: coop.personId, orgId: coop.orgId },
      { 'X-Admin-Key': TEST_ADMIN_KEY },
    );
    // A restricted service holds the documented permissions, "administer CiviCRM" among them on 5.x.
    const holdsAdminister =
      !real.restricted || (await documentedPermissionsOf(crm)).includes('administer CiviCRM');
    if (!holdsAdminister) {
      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({
        code: 'CRM_PERMISSION_DENIED',
        message: expect.stringContaining('administer CiviCRM'),
      });
      return;
    }
    expect(response.status).toBe(200);
    const { formUrl } = (await response.json()) as { formUrl: string };
    const query = new URL(formUrl).search;
    expect((await service.get(`/api/data${query}`)).status).toBe(200);
  });

  it('gives the same answers as the emulator the fast suites use', async () => {
    const answers = await runContractScenarios(service, crm);
    // The emulator's demo site keeps the documented group names, whatever the real site's are.
    const emulated = await startTestApp({
      env: {
        RATE_LIMIT_READS_PER_MINUTE: '10000',
        CRM_ACTIVITY_CUSTOM_GROUP: 'Check_in_data__organizing_',
        CRM_CONTACT_CUSTOM_GROUP: 'Food_Co_op_Organizing',
      },
    });
    const emulatorCrm = adminClient({
      url: emulated.emulator.baseUrl,
      adminKey: TEST_API_KEY,
      groups: { activity: 'Check_in_data__organizing_', contact: 'Food_Co_op_Organizing' },
    });
    try {
      expect(answers).toEqual(await runContractScenarios(emulated, emulatorCrm));
    } finally {
      await emulatorCrm.close();
      await emulated.close();
    }
  });
});

/** A statement run on the CRM's database as root (the suite's own CiviCRM only). */
function sql(statement: string): void {
  execFileSync('mariadb', [
    `--socket=${process.env['CIVICRM_DB_SOCKET']}`,
    '-uroot',
    'civicrm',
    '-e',
    statement,
  ]);
}

async function checkinCount(crm: CrmClient, orgId: number): Promise<number> {
  const rows = await crm.api4('Activity', 'get', {
    select: ['id'],
    where: [
      ['target_contact_id', 'CONTAINS', orgId],
      ['activity_type_id:name', '=', 'Check-in (organizing)'],
    ],
  });
  return rows.length;
}

/** A value of the field's type that CiviCRM can store, or undefined to leave the field out. */
function sampleValue(
  field: FieldConfig,
  options: ReadonlyArray<{ value: string }>,
  files: Record<string, { id: number }>,
): unknown {
  const bounded = (value: number) => Math.min(Math.max(value, field.min ?? value), field.max ?? value);
  switch (field.type) {
    case 'text':
      return `Checked ${field.name} – ünïcode ✓`.slice(0, field.maxLength ?? 255);
    case 'number':
      return bounded(42);
    case 'currency':
      return bounded(1234.5);
    case 'percent':
      return bounded(37.5);
    case 'date':
      return '2026-03-14';
    case 'boolean':
      return true;
    case 'select':
      return options[0]?.value;
    case 'multiselect':
      return options.length > 1 ? [options[0]?.value, options[1]?.value] : undefined;
    case 'file':
      return files[field.name] ? { ...files[field.name] } : undefined;
    case 'readonly':
      return undefined;
  }
}

function expectStored(field: FieldConfig, stored: unknown, sent: unknown): void {
  const context = `${field.name}: stored ${JSON.stringify(stored)}, sent ${JSON.stringify(sent)}`;
  switch (field.type) {
    case 'date':
      expect([context, String(stored).slice(0, 10)]).toEqual([context, sent]);
      break;
    case 'boolean':
      expect([context, stored === true || stored === 1 || stored === '1']).toEqual([context, sent]);
      break;
    case 'number':
    case 'currency':
    case 'percent':
      expect([context, Number(stored)]).toEqual([context, sent]);
      break;
    case 'multiselect':
      expect([context, [...(stored as string[])].sort()]).toEqual([context, [...(sent as string[])].sort()]);
      break;
    case 'file':
      expect([context, Number(stored)]).toEqual([context, (sent as { id: number }).id]);
      break;
    case 'text':
    case 'select':
    case 'readonly':
      expect([context, stored]).toEqual([context, sent]);
  }
}
