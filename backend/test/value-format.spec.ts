import type { FormDataPayload, ReportPayload, StaffReportPayload } from '@checkin/contract';
import { createDemoModel, DEMO_ORG_ID } from '../src/app/crm/in-memory/demo-data';
import { OwnerAccessService } from '../src/app/auth/owner-access.service';
import { API_USER_PERMISSIONS, asApiUser } from './support/api-user';
import { DEMO_LINK, ownerQuery, startTestApp, TEST_STAFF_KEY, type TestApp } from './support/test-app';

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

  it("carries CAD / en-CA in the form, the report and the staff report, from the extension's one info read", async () => {
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

    // The extension reported them; Setting.get was not needed.
    expect(service.emulator.callsTo('Setting', 'get')).toHaveLength(0);
    // The same info read the service makes to learn the site's time zone: no request of its own.
    expect(service.emulator.callsTo('CheckinMiddleware', 'info')).toHaveLength(1);
  });
});

describe('the documented API user, without administer CiviCRM', () => {
  let service: TestApp;

  beforeAll(async () => {
    const model = createDemoModel();
    model.setSetting('defaultCurrency', 'CAD');
    service = await startTestApp(asApiUser({ model }, API_USER_PERMISSIONS, { CRM_TIMEZONE: 'UTC' }));
  });

  afterAll(async () => {
    await service.close();
  });

  it("gets the site's currency through the extension, without Setting.get", async () => {
    const report = await json<ReportPayload>(await service.get(`/api/report?${ownerQuery(DEMO_LINK)}`));
    expect(report.valueFormat).toEqual({ currency: 'CAD', locale: 'en-US' });
    expect(service.emulator.callsTo('Setting', 'get')).toHaveLength(0);
    expect(service.logs.join('\n')).not.toMatch(/currency and locale could not be read/);
  });
});

describe('a site without the extension', () => {
  it('reads the settings with Setting.get when the API user may', async () => {
    const model = createDemoModel({ extensionInstalled: false });
    model.setSetting('defaultCurrency', 'CAD');
    model.setSetting('lcMessages', 'fr_CA');
    const service = await startTestApp({ emulator: { model }, env: { CRM_TIMEZONE: 'UTC' } });
    try {
      const staff = await json<StaffReportPayload>(
        await service.get(`/api/staff/report?orgId=${DEMO_ORG_ID}`, { 'X-Staff-Key': TEST_STAFF_KEY }),
      );
      expect(staff.valueFormat).toEqual({ currency: 'CAD', locale: 'fr-CA' });
      const settingReads = service.emulator.callsTo('Setting', 'get');
      expect(settingReads).toHaveLength(1);
      expect(settingReads[0]?.params).toEqual({ select: ['defaultCurrency', 'lcMessages'] });
    } finally {
      await service.close();
    }
  });

  it("answers in CiviCRM's defaults, and says why in the log, when the API user may not read them", async () => {
    const model = createDemoModel({ extensionInstalled: false });
    model.setSetting('defaultCurrency', 'CAD');
    const service = await startTestApp(asApiUser({ model }, API_USER_PERMISSIONS, { CRM_TIMEZONE: 'UTC' }));
    try {
      const staff = await json<StaffReportPayload>(
        await service.get(`/api/staff/report?orgId=${DEMO_ORG_ID}`, { 'X-Staff-Key': TEST_STAFF_KEY }),
      );
      expect(staff.valueFormat).toEqual({ currency: 'USD', locale: 'en-US' });
      expect(service.logs.join('\n')).toMatch(/currency and locale could not be read/);
      expect(service.emulator.callsTo('Setting', 'get')).toHaveLength(1);
    } finally {
      await service.close();
    }
  });
});
