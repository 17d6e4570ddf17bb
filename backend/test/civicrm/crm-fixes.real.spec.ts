import type { FieldReport, FileValue, FormDataPayload, StaffReportPayload } from '@checkin/contract';
import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Api4Condition, CrmClient } from '../../src/app/crm/crm-client';
import { fileJoinAlias } from '../../src/app/crm/crm-values';
import { ACTIVITY_TYPE_NAME } from '../../src/app/crm/crm-names';
import { ACTIVITY_FIELDS } from '../../src/app/fields/field-config';
import { bootService, type RunningService, TEST_STAFF_KEY } from '../support/test-app';
import {
  adminClient,
  type CiviCrmSite,
  seedCoop,
  serviceSettings,
  siteFromEnvironment,
} from './civicrm-site';
import { linkOf } from './contract-scenarios';

/**
 * The fixes of the site-variety round checked on a real CiviCRM (docs/decisions.md, "Discovered
 * fields on the staff report", "Disabled fields", "Idempotent submit", "Batched reads";
 * docs/performance.md, "Bounded answers"). Each spec puts back what it changed on the site.
 */
const site = siteFromEnvironment();
const describeReal = site ? describe : describe.skip;
const STAFF = { 'X-Staff-Key': TEST_STAFF_KEY };

type Row = Record<string, unknown>;

/** A proxy between the service and CiviCRM that counts requests and answer bytes on the wire. */
async function countingProxy(target: string): Promise<{
  url: string;
  take(): { requests: number; bytes: number };
  close(): Promise<void>;
}> {
  const upstream = new URL(target);
  let requests = 0;
  let bytes = 0;
  const server: Server = createServer((incoming, outgoing) => {
    requests += 1;
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: upstream.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (chunk: Buffer) => (bytes += chunk.length));
        answer.pipe(outgoing);
      },
    );
    forward.on('error', () => outgoing.destroy());
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    take() {
      const taken = { requests, bytes };
      requests = 0;
      bytes = 0;
      return taken;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describeReal(`the site-variety fixes on a real CiviCRM (${site?.target ?? 'none configured'})`, () => {
  const real = site as CiviCrmSite;
  let crm: CrmClient & { close(): Promise<void> };
  const added: number[] = [];

  async function one(entity: string, values: Row): Promise<Row> {
    const [row] = await crm.api4(entity, 'create', { values });
    if (!row) throw new Error(`${entity}.create answered nothing`);
    return row;
  }

  async function addField(group: 'activity' | 'contact', values: Row): Promise<string> {
    const groupName = real.groups[group];
    const row = await one('CustomField', { 'custom_group_id:name': groupName, ...values });
    added.push(Number(row['id']));
    const documented = group === 'activity' ? 'Check_in_data__organizing_' : 'Food_Co_op_Organizing';
    return `${documented}.${String(row['name'])}`;
  }

  beforeAll(() => {
    crm = adminClient(real);
  });

  afterAll(async () => {
    for (const id of added.reverse()) {
      await crm.api4('CustomField', 'delete', { where: [['id', '=', id]] }).catch(() => undefined);
    }
    await crm?.close();
  });

  it('refuses an explicit-join alias outside [-\\w]{1,256}; fileJoinAlias makes every name one it takes', async () => {
    const dotted = crm.api4('Activity', 'get', {
      select: ['id'],
      join: [['File AS file_G.Doc', 'LEFT', ['id', '=', 'file_G.Doc.id']]],
      limit: 1,
    });
    // CiviCRM answers "Illegal join alias" (the shared contract scenarios compare the words).
    await expect(dotted).rejects.toThrow(/rejected|HTTP 500/);
    for (const name of ['Check_in_data__organizing_.Lease', `${'G'.repeat(64)}.${'F'.repeat(64)}`]) {
      const alias = fileJoinAlias({ name });
      await expect(
        crm.api4('Activity', 'get', {
          select: ['id', `${alias}.file_name`],
          join: [[`File AS ${alias}`, 'LEFT', ['id', '=', `${alias}.id`]]],
          limit: 1,
        }),
      ).resolves.toBeDefined();
    }
  });

  it('shows discovered fields on the staff report: files with links, contacts by name, dates with time, labels decoded once', async () => {
    const coop = await seedCoop(crm, `${real.target}-discovered`);
    const lease = await addField('activity', {
      name: `Lease_${'x'.repeat(40)}`,
      label: 'Lease',
      data_type: 'File',
      html_type: 'File',
    });
    const bylaws = await addField('contact', {
      name: 'Bylaws_scan',
      label: 'Bylaws scan',
      data_type: 'File',
      html_type: 'File',
    });
    const mentor = await addField('activity', {
      name: 'Mentor',
      label: 'Mentor',
      data_type: 'ContactReference',
      html_type: 'Autocomplete-Select',
    });
    const meeting = await addField('activity', {
      name: 'Board_meeting',
      label: 'Board meeting',
      data_type: 'Date',
      html_type: 'Select Date',
      date_format: 'yy-mm-dd',
      time_format: 2,
    });
    const groupName = `probe_band_${randomUUID().slice(0, 8)}`;
    const optionGroup = await one('OptionGroup', { name: groupName, title: 'Band' });
    // As CiviCRM's admin screen stores a label typed with "<" and "&".
    await one('OptionValue', {
      option_group_id: optionGroup['id'],
      label: 'Under &lt; 5 &amp; growing',
      value: 'small',
      name: 'small',
    });
    const band = await addField('activity', {
      name: 'Band',
      label: 'Band',
      data_type: 'String',
      html_type: 'Select',
      option_group_id: optionGroup['id'],
    });
    const file = async (name: string) =>
      Number(
        (
          await crm.createFile({
            fileName: name,
            mimeType: 'application/pdf',
            bytes: Buffer.from('%PDF-1.4\n%%EOF\n'),
          })
        )[0]?.['id'],
      );
    const person = await one('Contact', {
      contact_type: 'Individual',
      first_name: 'Maya',
      last_name: 'Mentor',
    });
    await one('Activity', {
      'activity_type_id:name': ACTIVITY_TYPE_NAME,
      source_contact_id: coop.personId,
      target_contact_id: [coop.orgId],
      [lease]: await file('lease.pdf'),
      [mentor]: person['id'],
      [meeting]: '2026-11-20 14:30:00',
      [band]: 'small',
    });
    await crm.api4('Contact', 'update', {
      values: { [bylaws]: await file('bylaws.pdf') },
      where: [['id', '=', coop.orgId]],
    });

    const service = await bootService(serviceSettings(real));
    try {
      const response = await service.get(`/api/staff/report?orgId=${coop.orgId}`, STAFF);
      expect(response.status).toBe(200);
      const payload = (await response.json()) as StaffReportPayload;
      const report = (name: string): FieldReport | undefined =>
        payload.sections.flatMap((section) => section.fields).find((entry) => entry.field.name === name);
      expect(report(lease)?.latest).toMatchObject({ file_name: expect.stringMatching(/^lease/) });
      expect((report(lease)?.latest as FileValue).url).toEqual(expect.any(String));
      expect((report(bylaws)?.latest as FileValue).url).toEqual(expect.any(String));
      expect(report(mentor)?.latest).toBe('Maya Mentor');
      expect(String(report(meeting)?.latest)).toMatch(/^2026-11-20 14:30/);
      expect(payload.options[band]).toEqual([
        { value: 'small', label: 'Under < 5 & growing', name: 'small' },
      ]);
    } finally {
      await service.close();
    }
  });

  it('reads a 400-check-in co-op whose files are in its two oldest check-ins in one request under 100 kB', async () => {
    const coop = await seedCoop(crm, `${real.target}-old-files`);
    const files = await Promise.all(
      ['plan.pdf', 'study.pdf'].map(async (name) =>
        Number(
          (
            await crm.createFile({
              fileName: name,
              mimeType: 'application/pdf',
              bytes: Buffer.from('%PDF-1.4\n%%EOF\n'),
            })
          )[0]?.['id'],
        ),
      ),
    );
    const others = ACTIVITY_FIELDS.filter(
      (field) => field.type !== 'file' && !field.neverPrefilled && field.crmField,
    ).map((field) => field.name);
    for (let start = 0; start < 400; start += 50) {
      const calls = Object.fromEntries(
        Array.from({ length: 50 }, (_, offset) => {
          const index = start + offset;
          const day = new Date(Date.UTC(2021, 0, 1) + index * 4 * 86_400_000).toISOString().slice(0, 10);
          return [
            `c${index}`,
            [
              'Activity',
              'create',
              {
                values: {
                  'activity_type_id:name': ACTIVITY_TYPE_NAME,
                  source_contact_id: coop.personId,
                  target_contact_id: [coop.orgId],
                  activity_date_time: `${day} 10:00:00`,
                  'Check_in_data__organizing_.Steering_committee_size': 5 + (index % 7),
                  'Check_in_data__organizing_.Organizing_notes': `Check-in ${index}: met the board. `.repeat(
                    3,
                  ),
                  ...(index === 0 ? { 'Check_in_data__organizing_.Business_plan': files[0] } : {}),
                  ...(index === 1 ? { 'Check_in_data__organizing_.Feasibility_study': files[1] } : {}),
                  ...(index === 399 ? { 'Check_in_data__organizing_.Cleared_fields': others.join(',') } : {}),
                },
              },
            ] as const,
          ];
        }),
      );
      await crm.batch(calls);
    }
    const proxy = await countingProxy(real.url);
    const service = await bootService({ ...serviceSettings(real), CRM_BASE_URL: proxy.url });
    try {
      // The site's info and schema are cached once per process: not the read under test.
      expect((await service.get(`/api/data?${linkOf(coop)}`)).status).toBe(200);
      for (const warm of [true]) {
        proxy.take();
        const response = await service.get(`/api/data?${linkOf(coop)}`);
        expect(response.status).toBe(200);
        const payload = (await response.json()) as FormDataPayload;
        const wire = proxy.take();
        process.stdout.write(
          `old-files co-op (${real.target}, warm ${warm}): ${wire.requests} request(s), ${wire.bytes} bytes\n`,
        );
        expect(payload.prefill['Business_plan']).toMatchObject({ id: files[0] });
        expect(payload.prefill['Feasibility_study']).toMatchObject({ id: files[1] });
        expect(wire.requests).toBe(1);
        expect(wire.bytes).toBeLessThanOrEqual(100_000);
      }
    } finally {
      await service.close();
      await proxy.close();
    }
  });

  it('never offers a field the site disabled, and refuses an answer to it with 400 FIELD_DISABLED', async () => {
    const coop = await seedCoop(crm, `${real.target}-disabled`);
    const where: Api4Condition[] = [
      ['custom_group_id:name', '=', real.groups.activity],
      ['name', '=', 'Steering_committee_size'],
    ];
    await crm.api4('CustomField', 'update', { values: { is_active: false }, where });
    const service = await bootService(serviceSettings(real));
    try {
      const data = (await (await service.get(`/api/data?${linkOf(coop)}`)).json()) as FormDataPayload;
      const names = data.sections.flatMap((section) => section.fields.map((field) => field.name));
      expect(names).not.toContain('Steering_committee_size');
      const refused = await service.post('/api/submit', {
        cid: coop.personId,
        cs: coop.checksum,
        contactId: coop.personId,
        orgId: coop.orgId,
        submissionId: randomUUID(),
        values: { Steering_committee_size: 9 },
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        code: 'FIELD_DISABLED',
        fields: ['Steering_committee_size'],
      });
    } finally {
      await crm.api4('CustomField', 'update', { values: { is_active: true }, where });
      await service.close();
    }
  });

  it('fails a poisoned checksum alone (401), owners and readiness answering beside it', async () => {
    const coop = await seedCoop(crm, `${real.target}-poison`);
    const service = await bootService(serviceSettings(real));
    try {
      const poisoned = () =>
        fetch(`${service.url}/api/submit`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: service.url },
          body: `{"cid":"${coop.personId}","cs":"\\ud800","contactId":"${coop.personId}","submissionId":"x","values":{}}`,
        });
      const answers = await Promise.all([
        poisoned(),
        ...Array.from({ length: 6 }, () => service.get(`/api/data?${linkOf(coop)}`)),
        service.get('/api/health/ready'),
        poisoned(),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([401, 200, 200, 200, 200, 200, 200, 200, 401]);
    } finally {
      await service.close();
    }
  });
});
