import type { FieldValue, FileValue, FieldReport, StaffReportPayload } from '@checkin/contract';
import type { CiviCrmModel } from '@checkin/civicrm-fake';
import type { RecordedCall } from '@checkin/civicrm-fake/emulator';
import { ACTIVITY_CUSTOM_GROUP, ACTIVITY_TYPE_NAME } from '../../src/app/crm/crm-names';
import { createDemoModel, DEMO_ORG_ID, DEMO_PERSON_ID } from '../../src/app/crm/in-memory/demo-data';
import { STAFF_HEADERS } from './shared-app';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app';

/** The staff report's specs: the service behind a site key and Basic Auth, and readers of its payload. */
export const SITE_KEY = 'staff-report-site-key-0123';
export const WEBSERVER = { user: 'webserver', password: 'staff-report-webserver-pass' };
export const FILE_ROUTE = '/civicrm/checkin-file/{id}';
/** The demo organization's files: the certificate, two studies, the plan and the pro forma. */
export const DEMO_ORG_FILE_COUNT = 5;

export function staffReport(
  test: TestApp,
  orgId: number | string = DEMO_ORG_ID,
  headers: Record<string, string> = STAFF_HEADERS,
): Promise<Response> {
  return test.get(`/api/staff/report?orgId=${orgId}`, headers);
}

export async function payloadOf(response: Response): Promise<StaffReportPayload> {
  expect(response.status).toBe(200);
  return (await response.json()) as StaffReportPayload;
}

export function allFieldReports(payload: StaffReportPayload): FieldReport[] {
  return payload.sections.flatMap((section) => [
    ...section.fields,
    ...(section.matrix?.rows.flatMap((row) => row.cells.filter((cell) => cell !== null)) ?? []),
  ]);
}

function isFile(value: FieldValue): value is FileValue {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every file value in the payload: latest values and history entries alike. */
export function fileValuesOf(payload: StaffReportPayload): FileValue[] {
  return allFieldReports(payload)
    .flatMap((report) => [report.latest, ...report.history.map((entry) => entry.value)])
    .filter(isFile);
}

export function fieldReport(payload: StaffReportPayload, name: string): FieldReport {
  const report = allFieldReports(payload).find((candidate) => candidate.field.name === name);
  if (!report) throw new Error(`No field ${name} in the staff report`);
  return report;
}

export const v3Calls = (test: TestApp): RecordedCall[] =>
  test.emulator.calls.filter((call) => call.version === 3);
export const callNames = (calls: RecordedCall[]) =>
  calls.map((call) => `${call.entity}.${call.action}`).sort();

/** The authentication headers a call carried, as the CRM (and a webserver in front) see them. */
export function authHeaders(call: RecordedCall): Record<string, string | undefined> {
  const { headers } = call;
  return {
    auth: headers['x-civi-auth'],
    siteKey: headers['x-civi-key'],
    basic: headers['authorization'],
    requestedWith: headers['x-requested-with'],
  };
}

export function addCheckInWithFiles(model: CiviCrmModel, count: number): number[] {
  const ids = Array.from({ length: count }, (_, index) => {
    const [file] = model.api4('File', 'create', {
      values: { file_name: `extra-${index}.pdf`, mime_type: 'application/pdf', content: 'JVBERi0=' },
    });
    return Number(file?.['id']);
  });
  for (const id of ids) {
    model.api4('Activity', 'create', {
      values: {
        'activity_type_id:name': ACTIVITY_TYPE_NAME,
        source_contact_id: DEMO_PERSON_ID,
        target_contact_id: [DEMO_ORG_ID],
        activity_date_time: '2026-11-18 10:00:00',
        [`${ACTIVITY_CUSTOM_GROUP}.Business_plan`]: id,
      },
    });
  }
  return ids;
}

/** The service in live mode against an emulator with a site key and Basic Auth in front. */
export function liveAppOptions(model: CiviCrmModel = createDemoModel(), pauseSeconds = '0'): TestAppOptions {
  return {
    env: {
      CRM_SITE_KEY: SITE_KEY,
      CRM_BASIC_AUTH_USER: WEBSERVER.user,
      CRM_BASIC_AUTH_PASSWORD: WEBSERVER.password,
      CRM_FILE_ROUTE: FILE_ROUTE,
      // Every report asks the v3 lookup, so each spec sees the product's order of calls; the
      // pause after a refusal has its own spec.
      CRM_ATTACHMENT_LOOKUP_PAUSE_SECONDS: pauseSeconds,
    },
    emulator: { model, siteKey: SITE_KEY, basicAuth: WEBSERVER },
  };
}

export function startLiveApp(model?: CiviCrmModel, pauseSeconds?: string): Promise<TestApp> {
  return startTestApp(liveAppOptions(model, pauseSeconds));
}
