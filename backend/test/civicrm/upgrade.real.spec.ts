import type { StaffReportPayload } from '@checkin/contract';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { adminClient, download, fixture, logIn, seedCoop, siteFromEnvironment } from './civicrm-site';

/**
 * The two halves of tools/civicrm/upgrade-run.mjs (docs/upgrading.md): `before`, against the
 * previous release set up by its own guide, writes a co-op's check-in with a file through the
 * service, keeps a staff file link it made and a receipt of an upload not yet submitted, and
 * records the settings; `after`, against the release docs/upgrading.md installed, proves all of
 * it intact: the check-in and its file, the owner link, the old file link, the receipt, a staff
 * link from the co-op's contact record, every setting kept, and the new version answering.
 * Skipped unless UPGRADE_PHASE is set (the real-CiviCRM suite runs its files without it).
 */
const phase = process.env['UPGRADE_PHASE'];
const statePath = process.env['UPGRADE_STATE'] ?? '';
const settingsPath = process.env['UPGRADE_SETTINGS'] ?? '';
const site = siteFromEnvironment();
const describePhase = (name: string) => (phase === name && site ? describe : describe.skip);

interface UpgradeState {
  personId: number;
  orgId: number;
  checksum: string;
  fileId: number;
  fileLink: string;
  pendingFile: { id: number; receipt: string };
  settings: Record<string, string>;
  extensionFileLinkKey: string;
}

/** The settings file: `NAME=value` (0.1.0) or `NAME='value'` (1.0.0 on). */
function settingsFile(path: string): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match?.[1]) settings[match[1]] = (match[2] ?? '').replace(/^'(.*)'$/, '$1');
  }
  return settings;
}

const serviceUrl = (settings: Record<string, string>) => `http://127.0.0.1:${settings['PORT']}`;

async function upload(settings: Record<string, string>, owner: Record<string, string>, name: string) {
  const form = new FormData();
  for (const [key, value] of Object.entries(owner)) form.set(key, value);
  form.set('fieldRef', 'Certificate_of_Incorporation');
  form.set('file', new Blob([fixture('sample.pdf')], { type: 'application/pdf' }), name);
  const response = await fetch(`${serviceUrl(settings)}/api/upload`, { method: 'POST', body: form });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number; receipt: string };
}

async function staffReport(settings: Record<string, string>, orgId: number, key: string) {
  const response = await fetch(`${serviceUrl(settings)}/api/staff/report?orgId=${orgId}`, {
    headers: { 'X-Staff-Key': key },
  });
  return {
    status: response.status,
    report: response.ok ? ((await response.json()) as StaffReportPayload) : null,
  };
}

function fileLinks(report: StaffReportPayload, crmUrl: string): string[] {
  return report.sections
    .flatMap((section) => section.fields)
    .map((row) => row.latest)
    .filter(
      (value): value is { id: number; url?: string } =>
        typeof value === 'object' && value !== null && !Array.isArray(value) && 'id' in value,
    )
    .map((value) =>
      value.url
        ? new URL(value.url, `${crmUrl}/`).toString()
        : `${crmUrl}${(report.fileRouteTemplate ?? '').replace('{id}', String(value.id))}`,
    );
}

async function extensionSetting(name: string): Promise<string> {
  const response = await fetch(`${site?.url}/civicrm/ajax/api4/Setting/get`, {
    method: 'POST',
    headers: { 'X-Civi-Auth': `Bearer ${site?.adminKey}`, 'X-Requested-With': 'XMLHttpRequest' },
    body: new URLSearchParams({ params: JSON.stringify({ select: [name] }) }),
  });
  const body = (await response.json()) as { values: { value: unknown }[] };
  return String(body.values[0]?.value ?? '');
}

describePhase('before')('before the upgrade: the previous release at work', () => {
  it('records a check-in with a file, a staff file link, a pending receipt and the settings', async () => {
    const settings = settingsFile(settingsPath);
    const crm = adminClient({
      url: site?.url ?? '',
      adminKey: site?.adminKey ?? '',
      groups: {
        activity: settings['CRM_ACTIVITY_CUSTOM_GROUP'] ?? '',
        contact: settings['CRM_CONTACT_CUSTOM_GROUP'] ?? '',
      },
    });
    try {
      const coop = await seedCoop(crm, 'upgrade');
      const owner = {
        cid: String(coop.personId),
        cs: coop.checksum,
        contactId: String(coop.personId),
        orgId: String(coop.orgId),
      };
      const file = await upload(settings, owner, 'certificate.pdf');
      const submitted = await fetch(`${serviceUrl(settings)}/api/submit`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          ...owner,
          contactId: coop.personId,
          orgId: coop.orgId,
          submissionId: randomUUID(),
          values: { Steering_committee_size: 7, Certificate_of_Incorporation: file },
        }),
      });
      expect(submitted.status).toBe(201);
      const { status, report } = await staffReport(settings, coop.orgId, settings['STAFF_REPORT_KEY'] ?? '');
      expect(status).toBe(200);
      const [fileLink] = fileLinks(report as StaffReportPayload, site?.url ?? '');
      expect(fileLink).toBeDefined();
      const state: UpgradeState = {
        personId: coop.personId,
        orgId: coop.orgId,
        checksum: coop.checksum,
        fileId: file.id,
        fileLink: fileLink ?? '',
        pendingFile: await upload(settings, owner, 'statutes.pdf'),
        settings,
        extensionFileLinkKey: await extensionSetting('checkin_middleware_file_link_key'),
      };
      writeFileSync(statePath, JSON.stringify(state, null, 2), { mode: 0o600 });
    } finally {
      await crm.close();
    }
  });
});

describePhase('after')('after the upgrade by docs/upgrading.md', () => {
  const state = () => JSON.parse(readFileSync(statePath, 'utf8')) as UpgradeState;
  const settings = () => settingsFile(settingsPath);

  it('keeps every setting the previous release had, adds the new ones, and answers with the new version', async () => {
    const before = state().settings;
    const now = settings();
    for (const [name, value] of Object.entries(before))
      expect({ name, value: now[name] }).toEqual({ name, value });
    expect(now['STAFF_LINK_KEY']?.length).toBeGreaterThanOrEqual(32);
    expect(await extensionSetting('checkin_middleware_file_link_key')).toBe(state().extensionFileLinkKey);
    const health = await fetch(`${serviceUrl(now)}/api/health`, {
      headers: { 'X-Admin-Key': now['ADMIN_KEY'] ?? '' },
    });
    const body = (await health.json()) as { status: string; details: { service?: { version?: string } } };
    expect(body.status).toBe('ok');
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    expect(body.details.service?.version).toBe(version);
  });

  it("keeps the check-in and its file: the owner's link shows it, the old staff file link opens it", async () => {
    const { personId, orgId, checksum, fileLink } = state();
    const owner = new URLSearchParams({
      cid: String(personId),
      cs: checksum,
      contactId: String(personId),
      orgId: String(orgId),
    });
    const report = await fetch(`${serviceUrl(settings())}/api/report?${owner}`);
    expect(report.status).toBe(200);
    expect(JSON.stringify(await report.json())).toContain('7');
    const cookie = await logIn(site as NonNullable<typeof site>);
    const old = await download(fileLink, cookie);
    expect(old.status).toBe(200);
    expect(old.bytes.equals(fixture('sample.pdf'))).toBe(true);
  });

  it("accepts an upload's receipt issued before the upgrade", async () => {
    const { personId, orgId, checksum, pendingFile } = state();
    const submitted = await fetch(`${serviceUrl(settings())}/api/submit`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        cid: String(personId),
        cs: checksum,
        contactId: personId,
        orgId,
        submissionId: randomUUID(),
        values: { Steering_committee_size: 8, Certificate_of_Incorporation: pendingFile },
      }),
    });
    expect(submitted.status).toBe(201);
  });

  it("opens the staff report from the co-op's contact record (a staff link) and its file", async () => {
    const { orgId } = state();
    const cookie = await logIn(site as NonNullable<typeof site>);
    const redirect = await fetch(`${site?.url}/civicrm/checkin-staff-report?cid=${orgId}`, {
      headers: { Cookie: cookie },
      redirect: 'manual',
    });
    expect(redirect.status).toBeGreaterThanOrEqual(300);
    const location = new URL(redirect.headers.get('location') ?? '');
    const { status, report } = await staffReport(settings(), orgId, location.searchParams.get('key') ?? '');
    expect(status).toBe(200);
    const links = fileLinks(report as StaffReportPayload, site?.url ?? '');
    const fetched = await download(links[0] ?? '', cookie);
    expect(fetched.status).toBe(200);
  });
});
