import type { FormDataPayload, ReportPayload, StaffReportPayload } from '@checkin/contract';
import { createDemoModel, DEMO_ORG_ID } from '../src/app/crm/in-memory/demo-data';
import { OwnerAccessService } from '../src/app/auth/owner-access.service';
import { DEMO_LINK, ownerQuery, startTestApp, TEST_STAFF_KEY, type TestApp } from './support/test-app';

const RESTRICTED_KEY = 'restricted-api-key-0123456789';
/** The documented API user (docs/civicrm-setup.md): no administer CiviCRM, so no Setting.get. */
const API_USER_PERMISSIONS = [
  'authenticate with api key',
  'access CiviCRM',
  'edit all contacts',
  'access all custom data',
  'view all activities',
  'delete activities',
  'access uploaded files',
];

async function json<T>(response: Response): Promise<T> {
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

describe("the CRM site's currency and locale reach every payload", () => {
  let service: TestApp;

  beforeAll(async () => {
    const model = createDemoModel();
    model.setSetting('defaultCurrency', 'CAD');
    model.setSetting('lcMessages', 'en_CA');
    service = await startTestApp({ emulator: { model } });
  });

  afterAll(async () => {
    await service.close();
  });

  it('carries CAD / en-CA in the form, the report and the staff report, read once and in the first batch', async () => {
    service.app.get(OwnerAccessService).clear();
    const form = await json<FormDataPayload>(await service.get(`/api/data?${ownerQuery(DEMO_LINK)}`));
    const report = await json<ReportPayload>(await service.get(`/api/report?${ownerQuery(DEMO_LINK)}`));
    const staff = await json<StaffReportPayload>(
      await service.get(`/api/staff/report?orgId=${DEMO_ORG_ID}`, { 'X-Staff-Key': TEST_STAFF_KEY }),
    );
    const expected = { currency: 'CAD', locale: 'en-CA' };
    expect(form.valueFormat).toEqual(expected);
    expect(report.valueFormat).toEqual(expected);
    expect(staff.valueFormat).toEqual(expected);

    const settingReads = service.emulator.calls.filter((call) => call.entity === 'Setting');
    expect(settingReads).toHaveLength(1);
    expect(settingReads[0]?.params).toEqual({ select: ['defaultCurrency', 'lcMessages'] });
    // It went out in the form's batch, not as a request of its own.
    expect(settingReads[0]?.batchKey).toBeDefined();
  });
});

describe('a site whose settings the API user may not read', () => {
  let service: TestApp;

  beforeAll(async () => {
    const model = createDemoModel();
    model.setSetting('defaultCurrency', 'CAD');
    service = await startTestApp({
      emulator: { model, apiUsers: { [RESTRICTED_KEY]: { permissions: API_USER_PERMISSIONS } } },
      env: { CRM_API_KEY: RESTRICTED_KEY, CRM_TIMEZONE: 'UTC' },
    });
  });

  afterAll(async () => {
    await service.close();
  });

  it("still answers the report, in CiviCRM's defaults, and says why in the log", async () => {
    const report = await json<ReportPayload>(await service.get(`/api/report?${ownerQuery(DEMO_LINK)}`));
    expect(report.valueFormat).toEqual({ currency: 'USD', locale: 'en-US' });
    expect(service.logs.join('\n')).toMatch(/currency and locale could not be read/);
    expect(service.emulator.callsTo('Setting', 'get')).toHaveLength(1);
  });
});
