import type { FieldReport, FileValue, StaffReportPayload } from '@checkin/contract';
import type { CiviCrmModel } from '@checkin/civicrm-fake';
import { ACTIVITY_CUSTOM_GROUP, ACTIVITY_TYPE_NAME, CONTACT_CUSTOM_GROUP } from '../src/app/crm/crm-names';
import { createDemoModel, DEMO_ORG_ID, DEMO_PERSON_ID } from '../src/app/crm/in-memory/demo-data';
import { startTestApp, TEST_STAFF_KEY, type TestApp } from './support/test-app';

/**
 * The staff report over custom fields the product's configuration does not name (docs/decisions.md,
 * "Discovered fields on the staff report"): whatever their names and types, they show, as a person
 * reads them.
 */

const STAFF = { 'X-Staff-Key': TEST_STAFF_KEY };
const SITE_KEY = 'discovered-fields-site-key';
/** CiviCRM's longest field name: 64 characters. */
const LONG_NAME = `Feasibility_${'x'.repeat(52)}`;

type Row = Record<string, unknown>;

function one(model: CiviCrmModel, entity: string, values: Row): Row {
  const [row] = model.api4(entity, 'create', { values });
  if (!row) throw new Error(`${entity}.create answered nothing`);
  return row;
}

function groupId(model: CiviCrmModel, name: string): unknown {
  const [group] = model.api4('CustomGroup', 'get', { where: [['name', '=', name]] });
  return group?.['id'];
}

function addField(model: CiviCrmModel, group: string, values: Row): string {
  one(model, 'CustomField', { custom_group_id: groupId(model, group), ...values });
  return `${group}.${String(values['name'])}`;
}

function addFile(model: CiviCrmModel, fileName: string): number {
  return Number(
    one(model, 'File', { file_name: fileName, mime_type: 'application/pdf', content: 'JVBERi0=' })['id'],
  );
}

function addCheckIn(model: CiviCrmModel, values: Row, extra: Row = {}): number {
  return Number(
    one(model, 'Activity', {
      'activity_type_id:name': ACTIVITY_TYPE_NAME,
      source_contact_id: DEMO_PERSON_ID,
      target_contact_id: [DEMO_ORG_ID],
      activity_date_time: '2026-11-20 10:00:00',
      ...extra,
      ...values,
    })['id'],
  );
}

function reportOf(payload: StaffReportPayload, name: string): FieldReport {
  const found = payload.sections.flatMap((section) => section.fields).find((r) => r.field.name === name);
  if (!found) throw new Error(`No field ${name} on the staff report`);
  return found;
}

async function staffReport(test: TestApp): Promise<StaffReportPayload> {
  const response = await test.get(`/api/staff/report?orgId=${DEMO_ORG_ID}`, STAFF);
  const body = (await response.json()) as StaffReportPayload;
  expect({ status: response.status, body }).toMatchObject({ status: 200 });
  return body;
}

function startWith(model: CiviCrmModel): Promise<TestApp> {
  return startTestApp({
    env: { CRM_SITE_KEY: SITE_KEY, CRM_ATTACHMENT_LOOKUP_PAUSE_SECONDS: '0' },
    emulator: { model, siteKey: SITE_KEY },
  });
}

describe('staff report: File fields the configuration does not name', () => {
  let test: TestApp;
  let activityFile: string;
  let longFile: string;
  let organizationFile: string;
  const fileIds: Record<string, number> = {};

  beforeAll(async () => {
    const model = createDemoModel();
    activityFile = addField(model, ACTIVITY_CUSTOM_GROUP, {
      name: 'Lease',
      label: 'Lease',
      data_type: 'File',
      html_type: 'File',
    });
    longFile = addField(model, ACTIVITY_CUSTOM_GROUP, {
      name: LONG_NAME,
      label: 'Long study',
      data_type: 'File',
      html_type: 'File',
    });
    organizationFile = addField(model, CONTACT_CUSTOM_GROUP, {
      name: 'Bylaws_scan',
      label: 'Bylaws scan',
      data_type: 'File',
      html_type: 'File',
    });
    fileIds['lease'] = addFile(model, 'lease.pdf');
    fileIds['long'] = addFile(model, 'long_study.pdf');
    fileIds['bylaws'] = addFile(model, 'bylaws.pdf');
    addCheckIn(model, { [activityFile]: fileIds['lease'], [longFile]: fileIds['long'] });
    model.api4('Contact', 'update', {
      values: { [organizationFile]: fileIds['bylaws'] },
      where: [['id', '=', DEMO_ORG_ID]],
    });
    test = await startWith(model);
  });

  afterAll(() => test.close());

  it('shows each with its file and a signed link, every join alias one CiviCRM accepts', async () => {
    const payload = await staffReport(test);
    for (const [name, key, fileName] of [
      [activityFile, 'lease', 'lease.pdf'],
      [longFile, 'long', 'long_study.pdf'],
      [organizationFile, 'bylaws', 'bylaws.pdf'],
    ] as const) {
      const latest = reportOf(payload, name).latest as FileValue;
      expect(latest).toMatchObject({ id: fileIds[key], file_name: fileName });
      expect(latest.url).toEqual(expect.any(String));
    }
    const aliases = test.emulator.calls
      .flatMap((call) => (Array.isArray(call.params?.['join']) ? call.params['join'] : []))
      .map((join: unknown) => String((join as unknown[])[0]).split(' AS ')[1]);
    expect(aliases.length).toBeGreaterThan(0);
    for (const alias of aliases) expect(alias).toMatch(/^[-\w]{1,256}$/);
  });
});

describe('staff report: discovered fields read as a person reads them', () => {
  let test: TestApp;
  let contactRef: string;
  let withTime: string;
  let dateOnly: string;
  let select: string;

  beforeAll(async () => {
    const model = createDemoModel();
    contactRef = addField(model, ACTIVITY_CUSTOM_GROUP, {
      name: 'Mentor',
      label: 'Mentor',
      data_type: 'ContactReference',
      html_type: 'Autocomplete-Select',
    });
    withTime = addField(model, ACTIVITY_CUSTOM_GROUP, {
      name: 'Board_meeting',
      label: 'Board meeting',
      data_type: 'Date',
      html_type: 'Select Date',
      time_format: 2,
    });
    dateOnly = addField(model, ACTIVITY_CUSTOM_GROUP, {
      name: 'Lease_signed',
      label: 'Lease signed',
      data_type: 'Date',
      html_type: 'Select Date',
    });
    const group = one(model, 'OptionGroup', { name: 'size_band', title: 'Size band' });
    // As CiviCRM's admin screen stores a label typed with "<" and "&".
    one(model, 'OptionValue', {
      option_group_id: group['id'],
      label: 'Under &lt; 5 &amp; growing',
      value: 'small',
      name: 'small',
    });
    select = addField(model, ACTIVITY_CUSTOM_GROUP, {
      name: 'Size_band',
      label: 'Size &lt;band&gt;',
      data_type: 'String',
      html_type: 'Select',
      option_group_id: group['id'],
    });
    const mentor = one(model, 'Contact', {
      contact_type: 'Individual',
      first_name: 'Maya',
      last_name: 'Mentor',
    });
    addCheckIn(model, {
      [contactRef]: mentor['id'],
      [withTime]: '2026-11-20 14:30:00',
      [dateOnly]: '2026-11-02',
      [select]: 'small',
    });
    test = await startWith(model);
  });

  afterAll(() => test.close());

  it('shows a contact by name, a date with its time, labels decoded once', async () => {
    const payload = await staffReport(test);
    expect(reportOf(payload, contactRef).latest).toBe('Maya Mentor');
    expect(String(reportOf(payload, withTime).latest)).toMatch(/^2026-11-20 14:30/);
    expect(reportOf(payload, withTime).field.type).toBe('text');
    expect(reportOf(payload, dateOnly).field.type).toBe('date');
    expect(reportOf(payload, select).field.label).toBe('Size <band>');
    expect(payload.options[select]).toEqual([
      { value: 'small', label: 'Under < 5 & growing', name: 'small' },
    ]);
  });
});
