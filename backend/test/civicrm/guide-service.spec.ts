import type { StaffReportPayload } from '@checkin/contract';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { adminClient, download, fixture, logIn, seedCoop, siteFromEnvironment } from './civicrm-site';

/**
 * The service that docs/civicrm-setup.md's own commands built, configured and started (run by
 * tools/civicrm/real-suite.mjs through tools/civicrm/follow-setup-guide.mjs --until-stop, in a
 * copy of the repository: GUIDE_SERVICE_DIR). It is reached only over HTTP, with the settings the
 * guide wrote to checkin.env: an owner checks in with a file, and a staff member logged in to
 * CiviCRM downloads that file from the staff report's link.
 */
const serviceDir = process.env['GUIDE_SERVICE_DIR'];
const site = siteFromEnvironment();
const describeGuide = serviceDir && site ? describe : describe.skip;

/** `NAME='value'` lines of the settings file the guide wrote (docs/civicrm-setup.md, step 6). */
function settingsFile(path: string): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^([A-Z_]+)='(.*)'$/.exec(line.trim());
    if (match?.[1]) settings[match[1]] = match[2] ?? '';
  }
  return settings;
}

describeGuide(`the service set up by following docs/civicrm-setup.md (${site?.target ?? ''})`, () => {
  it('serves an owner check-in with an upload, and staff download the file from the staff report', async () => {
    // Outside the checkout, beside it (tools/civicrm/follow-setup-guide.mjs, settingsFileOf).
    const settings = settingsFile(`${resolve(serviceDir ?? '')}.env`);
    expect(settings['ORGANIZER_NAME']).toBe('Olu Organizer');
    expect(settings['STAFF_LINK_KEY']?.length).toBeGreaterThanOrEqual(32);
    const serviceUrl = `http://127.0.0.1:${settings['PORT']}`;
    const real = {
      url: site?.url ?? '',
      adminKey: site?.adminKey ?? '',
      groups: {
        activity: settings['CRM_ACTIVITY_CUSTOM_GROUP'] ?? '',
        contact: settings['CRM_CONTACT_CUSTOM_GROUP'] ?? '',
      },
    };
    const crm = adminClient(real);
    try {
      const coop = await seedCoop(crm, `guide ${site?.target}`);
      const owner = {
        cid: String(coop.personId),
        cs: coop.checksum,
        contactId: String(coop.personId),
        orgId: String(coop.orgId),
      };

      const form = new FormData();
      for (const [name, value] of Object.entries(owner)) form.set(name, value);
      form.set('fieldRef', 'Certificate_of_Incorporation');
      form.set('file', new Blob([fixture('sample.pdf')], { type: 'application/pdf' }), 'certificate.pdf');
      const uploaded = await fetch(`${serviceUrl}/api/upload`, { method: 'POST', body: form });
      expect(uploaded.status).toBe(201);
      const file = (await uploaded.json()) as { id: number };

      const submitted = await fetch(`${serviceUrl}/api/submit`, {
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

      const staff = await fetch(`${serviceUrl}/api/staff/report?orgId=${coop.orgId}`, {
        headers: { 'X-Staff-Key': settings['STAFF_REPORT_KEY'] ?? '' },
      });
      expect(staff.status).toBe(200);
      const report = (await staff.json()) as StaffReportPayload;
      const links = report.sections
        .flatMap((section) => section.fields)
        .map((row) => row.latest)
        .filter(
          (value): value is { id: number; url?: string } =>
            typeof value === 'object' && value !== null && !Array.isArray(value) && 'id' in value,
        )
        .map((value) =>
          value.url
            ? new URL(value.url, `${real.url}/`).toString()
            : `${real.url}${(report.fileRouteTemplate ?? '').replace('{id}', String(value.id))}`,
        );
      expect(links).toHaveLength(1);
      const fetched = await download(links[0] ?? '', await logIn(site as NonNullable<typeof site>));
      expect(fetched.status).toBe(200);
      expect(fetched.bytes.equals(fixture('sample.pdf'))).toBe(true);
    } finally {
      await crm.close();
    }
  });
});
