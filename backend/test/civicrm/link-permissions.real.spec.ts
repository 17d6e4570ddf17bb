import type { FormDataPayload, StaffReportPayload } from '@checkin/contract';
import { execFileSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import type { CrmClient } from '../../src/app/crm/crm-client';
import { bootService, type RunningService } from '../support/test-app';
import {
  adminClient,
  type CiviCrmSite,
  type SeededCoop,
  seedCoop,
  serviceSettings,
  siteFromEnvironment,
} from './civicrm-site';

/**
 * Who may get a link that opens a co-op's data, against a real CiviCRM with the extension and
 * accounts holding only a few permissions (docs/organizer-guide.md; docs/decisions.md, "Organizer
 * tools in CiviCRM"): the staff report route asks CiviCRM whether the user may see the co-op, the
 * mailing tokens make an owner's link only when the message goes to the owner, and the signing
 * keys are refused when they could be guessed.
 */
const site = siteFromEnvironment();
const describeReal = site ? describe : describe.skip;

const STAFF_LINK_KEY = randomBytes(32).toString('base64url');

interface Answer {
  status: number;
  text: string;
  json: Record<string, unknown>;
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON: text says what came.
  }
  return { status: response.status, text, json };
}

/** One APIv3 call as the holder of `apiKey`. */
async function api3As(
  real: CiviCrmSite,
  apiKey: string,
  entity: string,
  action: string,
  params: object,
): Promise<Answer> {
  return answerOf(
    await fetch(`${real.url}/civicrm/ajax/rest`, {
      method: 'POST',
      headers: {
        'X-Civi-Auth': `Bearer ${apiKey}`,
        'X-Requested-With': 'XMLHttpRequest',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ entity, action, json: JSON.stringify(params) }).toString(),
    }),
  );
}

/** One APIv4 call as the holder of `apiKey`. */
async function api4As(
  real: CiviCrmSite,
  apiKey: string,
  entity: string,
  action: string,
  params: object,
): Promise<Answer> {
  return answerOf(
    await fetch(`${real.url}/civicrm/ajax/api4/${entity}/${action}`, {
      method: 'POST',
      headers: {
        'X-Civi-Auth': `Bearer ${apiKey}`,
        'X-Requested-With': 'XMLHttpRequest',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ params: JSON.stringify(params) }).toString(),
    }),
  );
}

/** A CiviCRM user holding exactly `permissions` (plus signing in with its API key); its key and contact. */
async function userWith(
  crm: CrmClient,
  label: string,
  permissions: string[],
): Promise<{ apiKey: string; contactId: number }> {
  const apiKey = randomBytes(12).toString('hex');
  const stamp = `${label}_${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const [role] = await crm.api4('Role', 'create', {
    values: {
      name: stamp,
      label: stamp,
      permissions: ['authenticate with api key', ...permissions],
      is_active: true,
    },
  });
  const [contact] = await crm.api4('Contact', 'create', {
    values: { contact_type: 'Individual', first_name: 'Staff', last_name: stamp, api_key: apiKey },
  });
  await crm.api4('User', 'create', {
    values: {
      username: stamp,
      uf_name: `${stamp}@example.invalid`,
      contact_id: Number(contact?.['id']),
      roles: [Number(role?.['id'])],
      is_active: true,
    },
  });
  return { apiKey, contactId: Number(contact?.['id']) };
}

/** Every address in the text that starts with the service's. */
function linksIn(text: string, serviceUrl: string): URL[] {
  const escaped = serviceUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [...text.matchAll(new RegExp(`${escaped}[^\\s"<]*`, 'g'))].map((match) => new URL(match[0]));
}

/** A quoted-printable mail body as its text. */
function fromQuotedPrintable(body: string): string {
  return body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A query on the CRM's database as root (the suite's own CiviCRM only); tab-separated rows. */
function sql(statement: string): string {
  return execFileSync(
    'mariadb',
    [
      `--socket=${process.env['CIVICRM_DB_SOCKET']}`,
      '-uroot',
      'civicrm',
      '--batch',
      '--raw',
      '-N',
      '-e',
      statement,
    ],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
}

describeReal(`links and keys held to CiviCRM's permissions (${site?.target ?? 'none configured'})`, () => {
  const real = site as CiviCrmSite;
  let service: RunningService;
  let crm: CrmClient & { close(): Promise<void> };
  let coopA: SeededCoop;
  let coopB: SeededCoop;
  let saved: Record<string, unknown> = {};

  const SAVED_SETTINGS = [
    'checkin_middleware_service_url',
    'checkin_middleware_link_hours',
    'checkin_middleware_staff_link_key',
    'checkin_middleware_staff_link_minutes',
    'checkin_middleware_file_link_key',
    'mailing_backend',
  ];

  beforeAll(async () => {
    crm = adminClient(real);
    const current = await crm.api4('Setting', 'get', { select: SAVED_SETTINGS });
    saved = Object.fromEntries(current.map((row) => [String(row['name']), row['value']]));
    service = await bootService({ ...serviceSettings(real), STAFF_LINK_KEY });
    await crm.api4('Setting', 'set', {
      values: {
        checkin_middleware_service_url: `${service.url}/`,
        checkin_middleware_staff_link_key: STAFF_LINK_KEY,
        checkin_middleware_staff_link_minutes: 10,
      },
    });
    // The lifetime an administrator who never changed it gets.
    await crm.api4('Setting', 'revert', { select: ['checkin_middleware_link_hours'] });
    coopA = await seedCoop(crm, `${real.target} perms A`);
    coopB = await seedCoop(crm, `${real.target} perms B`);
  });

  afterAll(async () => {
    if (crm) {
      // Later specs (the guide's service) sign with the site's own keys.
      const values = Object.fromEntries(Object.entries(saved).filter(([, value]) => value !== undefined));
      await crm.api4('Setting', 'set', { values });
    }
    await service?.close();
    await crm?.close();
  });

  describe('the staff report route', () => {
    /** Opens civicrm/checkin-staff-report as the user, stopping at the redirect. */
    async function open(apiKey: string, cid: string): Promise<Response> {
      return fetch(`${real.url}/civicrm/checkin-staff-report?reset=1&cid=${cid}`, {
        headers: { 'X-Civi-Auth': `Bearer ${apiKey}` },
        redirect: 'manual',
      });
    }

    async function reportWith(token: string, orgId: number): Promise<Response> {
      return service.get(`/api/staff/report?orgId=${orgId}`, { 'X-Staff-Key': token });
    }

    it('refuses an account holding only "open check-in staff report", without "access CiviCRM"', async () => {
      const { apiKey } = await userWith(crm, 'report_only', ['open check-in staff report']);
      const response = await open(apiKey, String(coopB.orgId));
      const location = response.headers.get('location') ?? '';
      expect(location).not.toContain(service.url);
      expect(location).not.toContain('csl1.');
      expect(response.status).toBe(403);
    });

    it('gives staff a link to a co-op CiviCRM lets them see, and refuses one it hides, alike for no organization', async () => {
      const staff = await userWith(crm, 'report_acl', ['access CiviCRM', 'open check-in staff report']);
      // CiviCRM's relationship permission: this staff member may view co-op A, and no other contact.
      const [employer] = await crm.api4('RelationshipType', 'get', {
        select: ['id'],
        where: [['name_a_b', '=', 'Employee of']],
      });
      await crm.api4('Relationship', 'create', {
        values: {
          contact_id_a: staff.contactId,
          contact_id_b: coopA.orgId,
          relationship_type_id: Number(employer?.['id']),
          is_permission_a_b: 1,
          is_active: true,
        },
      });
      const seen = await api4As(real, staff.apiKey, 'Contact', 'get', {
        select: ['id'],
        where: [['id', 'IN', [coopA.orgId, coopB.orgId]]],
      });
      expect(seen.status).toBe(200);
      // Contact.get, as this user, does not return co-op B (nor A: APIv4 reads CiviCRM's ACL cache, which
      // leaves relationship permissions out; the route asks CRM_Contact_BAO_Contact_Permission::allow, which has them).
      expect((seen.json['values'] as { id: number }[]).map((row) => row.id)).not.toContain(coopB.orgId);

      const allowed = await open(staff.apiKey, String(coopA.orgId));
      expect(allowed.status).toBe(302);
      const token = new URL(allowed.headers.get('location') ?? '').searchParams.get('key') ?? '';
      expect(token).toMatch(/^csl1\./);
      const report = await reportWith(token, coopA.orgId);
      expect(report.status).toBe(200);
      expect(((await report.json()) as StaffReportPayload).organization.id).toBe(coopA.orgId);

      const hidden = await open(staff.apiKey, String(coopB.orgId));
      const hiddenText = await hidden.text();
      expect(hidden.headers.get('location') ?? '').not.toContain('csl1.');
      expect(hidden.status).toBe(404);
      // "Not allowed" and "not an organization" answer the same, so the route reveals no contact.
      for (const cid of [coopA.personId, 999_999_999]) {
        const other = await open(staff.apiKey, String(cid));
        expect(other.status).toBe(hidden.status);
        expect(await other.text()).toBe(hiddenText);
      }
    });

    it('still opens any co-op for staff who may view all contacts', async () => {
      const { apiKey } = await userWith(crm, 'report_all', [
        'access CiviCRM',
        'view all contacts',
        'open check-in staff report',
      ]);
      const response = await open(apiKey, String(coopB.orgId));
      expect(response.status).toBe(302);
      const token = new URL(response.headers.get('location') ?? '').searchParams.get('key') ?? '';
      expect((await reportWith(token, coopB.orgId)).status).toBe(200);
    });

    it('takes only a canonical organization id', async () => {
      const { apiKey } = await userWith(crm, 'report_id', [
        'access CiviCRM',
        'view all contacts',
        'open check-in staff report',
      ]);
      const response = await open(apiKey, `${coopA.orgId}%0A`);
      expect(response.headers.get('location') ?? '').not.toContain('csl1.');
      expect(response.status).toBe(400);
    });
  });

  describe('the signing-key settings', () => {
    async function setAsAdmin(values: Record<string, unknown>): Promise<Answer> {
      return api4As(real, real.adminKey, 'Setting', 'set', { values });
    }

    it.each([
      ['a template in angle brackets', () => '<the STAFF_LINK_KEY value, 32 chars>'],
      ['a change-me placeholder', () => 'change-me-change-me-change-me-1234'],
      ['32 times the same character', () => 'a'.repeat(32)],
      ['a short key', () => 'Qm7Rt2Vx9Lk4Wp8Z'],
      ['a copy of the file link key', () => 'Fk7Lm2Nq9Rs4Tu1Vw8Xy3Za6Bc0De5Gh'],
      ['a key holding a contact API key', () => `${real.adminKey}-Zq8Wn3Rb7Kc`],
    ])('refuses %s as the staff link key, without echoing it', async (_case, valueOf) => {
      const value = valueOf();
      if (_case === 'a copy of the file link key') {
        expect((await setAsAdmin({ checkin_middleware_file_link_key: value })).status).toBe(200);
      }
      const answer = await setAsAdmin({ checkin_middleware_staff_link_key: value });
      expect(answer.status).not.toBe(200);
      expect(String(answer.json['error_message'])).toMatch(/checkin_middleware_staff_link_key/);
      expect(answer.text).not.toContain(value);
      const [stored] = await crm.api4('Setting', 'get', { select: ['checkin_middleware_staff_link_key'] });
      expect(stored?.['value']).toBe(STAFF_LINK_KEY);
    });

    it('refuses a weak file link key the same way, and takes generated keys', async () => {
      const weak = await setAsAdmin({ checkin_middleware_file_link_key: 'b'.repeat(40) });
      expect(weak.status).not.toBe(200);
      expect(String(weak.json['error_message'])).toMatch(/checkin_middleware_file_link_key/);
      const fileKey = randomBytes(32).toString('base64');
      expect((await setAsAdmin({ checkin_middleware_file_link_key: fileKey })).status).toBe(200);
      expect((await setAsAdmin({ checkin_middleware_staff_link_key: STAFF_LINK_KEY })).status).toBe(200);
    });

    it('bounds the personal link lifetime: never unlimited, at most 30 days', async () => {
      for (const hours of [0, 721]) {
        const answer = await setAsAdmin({ checkin_middleware_link_hours: hours });
        expect(answer.status).not.toBe(200);
      }
      const [stored] = await crm.api4('Setting', 'get', { select: ['checkin_middleware_link_hours'] });
      expect(stored?.['value']).toBe(168);
    });
  });

  describe('the personal-link tokens', () => {
    let mailingId: number;
    let civiMail: { apiKey: string; contactId: number };

    beforeAll(async () => {
      const [created] = await crm.api4('Mailing', 'create', {
        values: {
          name: `Check-in links ${coopA.stamp}`,
          subject: 'Your check-in',
          body_text: 'Form: {checkin.form_url}\nReport: {checkin.report_url}\n',
          from_name: 'Organizer',
          from_email: 'organizer@example.org',
        },
      });
      mailingId = Number(created?.['id']);
      civiMail = await userWith(crm, 'civimail', ['access CiviCRM', 'access CiviMail']);
    });

    it('gives a CiviMail user previewing for an owner a placeholder, not the owner’s link', async () => {
      const preview = await api3As(real, civiMail.apiKey, 'Mailing', 'preview', {
        id: mailingId,
        contact_id: coopA.personId,
      });
      expect(preview.status).toBe(200);
      expect(preview.json['is_error']).toBeFalsy();
      const text = String((preview.json['values'] as Record<string, unknown>)['body_text']);
      expect(text).toContain('Form: [check-in form link: made when the message is sent]');
      expect(linksIn(text, service.url)).toEqual([]);
      expect(text).not.toMatch(/cs=/);
    });

    it('gives a user who may render templates a placeholder in WorkflowMessage.render', async () => {
      const renderer = await userWith(crm, 'renderer', ['access CiviCRM', 'render templates']);
      const rendered = await api4As(real, renderer.apiKey, 'WorkflowMessage', 'render', {
        workflow: 'generic',
        values: { contactID: coopA.personId },
        messageTemplate: { msg_text: 'Form: {checkin.form_url}', msg_subject: 'Check-in' },
      });
      expect(rendered.status).toBe(200);
      const text = String((rendered.json['values'] as Record<string, unknown>[])[0]?.['text']);
      expect(text).toBe('Form: [check-in form link: made when the message is sent]');
      expect(rendered.text).not.toContain(service.url);
    });

    it('makes no link for a contact who owns no co-op, even for an administrator', async () => {
      const [loner] = await crm.api4('Contact', 'create', {
        values: { contact_type: 'Individual', first_name: 'No', last_name: `Co-op ${coopA.stamp}` },
      });
      const preview = await api3As(real, real.adminKey, 'Mailing', 'preview', {
        id: mailingId,
        contact_id: Number(loner?.['id']),
      });
      const text = String((preview.json['values'] as Record<string, unknown>)['body_text']);
      expect(text).toContain('Form: \n');
      expect(linksIn(text, service.url)).toEqual([]);
    });

    it('sends the owner a working link, valid for 7 days, when the mailing is really sent to them', async () => {
      await crm.api4('Setting', 'set', { values: { mailing_backend: { outBound_option: 5 } } });
      const before = Number(sql('SELECT COALESCE(MAX(id), 0) FROM civicrm_mailing_spool').trim());
      const sent = await api3As(real, civiMail.apiKey, 'Mailing', 'send_test', {
        mailing_id: mailingId,
        test_email: `ada.${coopA.personId}@example.org`,
      });
      expect(sent.status).toBe(200);
      expect(sent.json['is_error']).toBeFalsy();
      const [headers, body] = sql(
        `SELECT TO_BASE64(headers), TO_BASE64(body) FROM civicrm_mailing_spool WHERE id > ${before} ORDER BY id DESC LIMIT 1`,
      )
        .trim()
        .split('\t')
        .map((column) => Buffer.from(column.replace(/\\n|\s/g, ''), 'base64').toString('utf8'));
      const text = /quoted-printable/i.test(headers ?? '') ? fromQuotedPrintable(body ?? '') : (body ?? '');
      expect(headers).toContain(`ada.${coopA.personId}@example.org`);
      const [formLink] = linksIn(text, service.url);
      expect(formLink?.searchParams.get('cid')).toBe(String(coopA.personId));
      expect(formLink?.searchParams.get('orgId')).toBe(String(coopA.orgId));
      expect(formLink?.searchParams.get('cs')).toMatch(/_168$/);
      const data = await service.get(`/api/data?${(formLink as URL).search.slice(1)}`);
      expect(data.status).toBe(200);
      expect(((await data.json()) as FormDataPayload).contact).toMatchObject({
        email: `ada.${coopA.personId}@example.org`,
      });
    });
  });

  describe('the file route', () => {
    it('refuses an id with a trailing newline that the link was signed for', async () => {
      const fileKey = randomBytes(32).toString('base64');
      await crm.api4('Setting', 'set', { values: { checkin_middleware_file_link_key: fileKey } });
      const expires = Math.floor(Date.now() / 1000) + 600;
      const signature = createHmac('sha256', fileKey).update(`checkin-file:3:${expires}`).digest('hex');
      const response = await fetch(
        `${real.url}/civicrm/checkin-file?id=3%0A&expires=${expires}&signature=${signature}`,
      );
      expect(response.status).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe('BAD_FILE_ID');
    });
  });
});
