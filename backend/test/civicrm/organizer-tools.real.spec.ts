import type { FormDataPayload, StaffReportPayload } from '@checkin/contract';
import { randomBytes } from 'node:crypto';
import type { CrmClient } from '../../src/app/crm/crm-client';
import { FORM_CONTACT_RELATIONSHIP } from '../../src/app/crm/crm-names';
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
 * What organizers use inside CiviCRM (docs/organizer-guide.md), against a real CiviCRM with the
 * extension installed: the personal-link tokens merged by a CiviMail mailing for each recipient,
 * the staff report opened from an organization's record, the portfolio display.
 */
const site = siteFromEnvironment();
const describeReal = site ? describe : describe.skip;

const STAFF_LINK_KEY = randomBytes(32).toString('base64url');

/** One APIv3 call with the administrator's key; the envelope as CiviCRM sends it. */
async function api3(
  real: CiviCrmSite,
  entity: string,
  action: string,
  params: object,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${real.url}/civicrm/ajax/rest`, {
    method: 'POST',
    headers: {
      'X-Civi-Auth': `Bearer ${real.adminKey}`,
      'X-Requested-With': 'XMLHttpRequest',
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ entity, action, json: JSON.stringify(params) }).toString(),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (body['is_error']) throw new Error(`${entity}.${action}: ${String(body['error_message'])}`);
  return body;
}

/** Every address in the text that starts with the service's. */
function linksIn(text: string, serviceUrl: string): URL[] {
  const escaped = serviceUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [...text.matchAll(new RegExp(`${escaped}[^\\s"<]*`, 'g'))].map((match) => new URL(match[0]));
}

/** The service's API query for a link the owner opened: the same parameters. */
function apiQuery(link: URL, override: Record<string, string> = {}): string {
  const query = new URLSearchParams(link.search);
  for (const [name, value] of Object.entries(override)) query.set(name, value);
  return query.toString();
}

/** A CiviCRM user holding `permissions`, signing in with an API key (for pages behind a permission). */
async function userWith(crm: CrmClient, label: string, permissions: string[]): Promise<string> {
  const apiKey = randomBytes(12).toString('hex');
  const stamp = `${label}_${Date.now().toString(36)}`;
  const [role] = await crm.api4('Role', 'create', {
    values: { name: stamp, label: stamp, permissions, is_active: true },
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
  return apiKey;
}

describeReal(`organizer tools in a real CiviCRM (${site?.target ?? 'none configured'})`, () => {
  const real = site as CiviCrmSite;
  let service: RunningService;
  let crm: CrmClient & { close(): Promise<void> };
  let first: SeededCoop;
  let second: SeededCoop;

  beforeAll(async () => {
    crm = adminClient(real);
    service = await bootService({ ...serviceSettings(real), STAFF_LINK_KEY });
    // The address CiviCRM puts in the links is the service's, as the setup guide says.
    await crm.api4('Setting', 'set', {
      values: {
        checkin_middleware_service_url: `${service.url}/`,
        checkin_middleware_link_hours: 24,
        checkin_middleware_staff_link_key: STAFF_LINK_KEY,
        checkin_middleware_staff_link_minutes: 10,
      },
    });
    first = await seedCoop(crm, `${real.target} tokens A`);
    second = await seedCoop(crm, `${real.target} tokens B`);
  });

  afterAll(async () => {
    await service?.close();
    await crm?.close();
  });

  describe('the personal-link tokens in a CiviMail mailing', () => {
    let mailingId: number;

    beforeAll(async () => {
      const created = await api3(real, 'Mailing', 'create', {
        name: `Quarterly check-in ${first.stamp}`,
        subject: 'Your quarterly check-in, {contact.first_name}',
        body_text: 'Form: {checkin.form_url}\nReport: {checkin.report_url}\n',
        body_html:
          '<p><a href="{checkin.form_url}">Open your check-in</a> · <a href="{checkin.report_url}">report</a></p>',
      });
      mailingId = Number(created['id']);
    });

    async function rendered(contactId: number): Promise<{ text: string; html: string }> {
      const preview = await api3(real, 'Mailing', 'preview', { id: mailingId, contact_id: contactId });
      const values = preview['values'] as Record<string, string>;
      return { text: values['body_text'] ?? '', html: values['body_html'] ?? '' };
    }

    it.each([
      ['first', () => [first, second] as const],
      ['second', () => [second, first] as const],
    ])('gives the %s recipient links that open their own form and no one else', async (_label, pair) => {
      const [owner, other] = pair();
      const { text, html } = await rendered(owner.personId);
      const [formLink, reportLink] = linksIn(text, service.url);
      expect(formLink?.pathname).toBe('/');
      expect(reportLink?.pathname).toBe('/report');
      for (const link of [formLink, reportLink] as URL[]) {
        expect(link.searchParams.get('cid')).toBe(String(owner.personId));
        expect(link.searchParams.get('contactId')).toBe(String(owner.personId));
        expect(link.searchParams.get('orgId')).toBe(String(owner.orgId));
      }
      // The HTML part carries the same link, escaped for an attribute.
      expect(html).toContain(`href="${formLink?.href.replace(/&/g, '&amp;')}"`);

      const data = await service.get(`/api/data?${apiQuery(formLink as URL)}`);
      expect(data.status).toBe(200);
      const payload = (await data.json()) as FormDataPayload;
      expect(payload.contact).toMatchObject({ email: `ada.${owner.personId}@example.org` });
      expect((await service.get(`/api/report?${apiQuery(reportLink as URL)}`)).status).toBe(200);
      // This link with the other recipient's co-op, or the other recipient's own link's id: refused.
      expect(
        (await service.get(`/api/data?${apiQuery(formLink as URL, { orgId: String(other.orgId) })}`)).status,
      ).toBe(403);
      const borrowed = apiQuery(formLink as URL, {
        cid: String(other.personId),
        contactId: String(other.personId),
        orgId: String(other.orgId),
      });
      expect((await service.get(`/api/data?${borrowed}`)).status).toBe(401);
    });

    it('leaves the organization out for a person who is the primary contact of several co-ops', async () => {
      const [org] = await crm.api4('Contact', 'create', {
        values: { contact_type: 'Organization', organization_name: `Second co-op ${first.stamp}` },
      });
      const [type] = await crm.api4('RelationshipType', 'get', {
        select: ['id'],
        where: [['name_a_b', '=', FORM_CONTACT_RELATIONSHIP]],
      });
      const [relationship] = await crm.api4('Relationship', 'create', {
        values: {
          contact_id_a: first.personId,
          contact_id_b: Number(org?.['id']),
          relationship_type_id: Number(type?.['id']),
          is_active: true,
        },
      });
      try {
        const [formLink] = linksIn((await rendered(first.personId)).text, service.url);
        expect(formLink?.searchParams.has('orgId')).toBe(false);
        // Without an organization the service asks which one (the form shows the picker).
        const data = await service.get(`/api/data?${apiQuery(formLink as URL)}`);
        expect(data.status).toBe(400);
        expect(((await data.json()) as { code: string }).code).toBe('ORG_REQUIRED');
        const organizations = await service.get(`/api/organizations?${apiQuery(formLink as URL)}`);
        expect(organizations.status).toBe(200);
      } finally {
        await crm.api4('Relationship', 'delete', { where: [['id', '=', Number(relationship?.['id'])]] });
      }
    });
  });

  describe('the staff report from the organization record', () => {
    /** The organization's contact summary page as the user sees it. */
    async function summaryOf(apiKey: string, orgId: number): Promise<string> {
      const response = await fetch(`${real.url}/civicrm/contact/view?reset=1&cid=${orgId}`, {
        headers: { 'X-Civi-Auth': `Bearer ${apiKey}` },
      });
      expect(response.status).toBe(200);
      return response.text();
    }

    /** Follows CiviCRM's action as the signed-in user would, up to the service's address. */
    async function openFromRecord(apiKey: string, orgId: number): Promise<Response> {
      return fetch(`${real.url}/civicrm/checkin-staff-report?reset=1&cid=${orgId}`, {
        headers: { 'X-Civi-Auth': `Bearer ${apiKey}` },
        redirect: 'manual',
      });
    }

    it("opens that co-op's staff report, and only that one, for staff holding the permission", async () => {
      const staffKey = await userWith(crm, 'checkin_staff', [
        'access CiviCRM',
        'authenticate with api key',
        'view all contacts',
        'open check-in staff report',
      ]);
      expect(await summaryOf(staffKey, first.orgId)).toContain(
        `href="/civicrm/checkin-staff-report?reset=1&cid=${first.orgId}"`,
      );
      const response = await openFromRecord(staffKey, first.orgId);
      expect(response.status).toBe(302);
      const target = new URL(response.headers.get('location') ?? '');
      expect(`${target.origin}${target.pathname}`).toBe(`${service.url}/staff`);
      expect(target.searchParams.get('orgId')).toBe(String(first.orgId));
      const token = target.searchParams.get('key') ?? '';
      expect(token).toMatch(/^csl1\./);

      const report = await service.get(`/api/staff/report?orgId=${first.orgId}`, { 'X-Staff-Key': token });
      expect(report.status).toBe(200);
      expect(((await report.json()) as StaffReportPayload).organization.id).toBe(first.orgId);
      expect(
        (await service.get(`/api/staff/report?orgId=${second.orgId}`, { 'X-Staff-Key': token })).status,
      ).toBe(401);
      // Who opened what is logged, the token never.
      const logged = service.logs.join('\n');
      expect(logged).toContain(`staff report of organization ${first.orgId} opened by CiviCRM contact`);
      expect(logged).not.toContain(token);
    });

    it('refuses staff without the permission', async () => {
      const otherKey = await userWith(crm, 'checkin_other', [
        'access CiviCRM',
        'authenticate with api key',
        'view all contacts',
      ]);
      const summary = await summaryOf(otherKey, first.orgId);
      expect(summary).toContain(String(first.stamp));
      expect(summary).not.toContain('checkin-staff-report');
      const response = await openFromRecord(otherKey, first.orgId);
      expect(response.status).toBe(403);
      expect(response.headers.get('location') ?? '').not.toContain(service.url);
    });
  });

  describe('the portfolio view', () => {
    interface DisplayRow {
      key: number;
      data: Record<string, unknown>;
      columns: { val?: unknown; links?: { url?: string }[] }[];
    }

    /** A date-time in the CRM's local time, as activity_date_time is written. */
    function localDateTime(date: Date): string {
      return new Intl.DateTimeFormat('sv-SE', {
        timeZone: real.timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      }).format(date);
    }

    async function checkIn(orgId: number, personId: number, when: Date, extra: Record<string, unknown>) {
      await crm.api4('Activity', 'create', {
        values: {
          'activity_type_id:name': 'Check-in (organizing)',
          'status_id:name': 'Completed',
          source_contact_id: personId,
          target_contact_id: [orgId],
          activity_date_time: localDateTime(when),
          subject: 'Quarterly check-in',
          ...extra,
        },
      });
    }

    async function run(name: string, orgIds: number[]): Promise<Map<number, DisplayRow>> {
      const rows = (await crm.api4('SearchDisplay', 'run', {
        savedSearch: name,
        display: name,
        filters: { id: orgIds },
      })) as unknown as DisplayRow[];
      return new Map(rows.map((row) => [Number(row.data['id']), row]));
    }

    it('lists each co-op with a check-in history: stage, last owner check-in, check-ins this quarter', async () => {
      const group = real.groups.activity;
      const [extension] = await crm.api4('Extension', 'get', {
        select: ['status'],
        where: [['key', '=', 'org.civicrm.search_kit']],
      });
      expect(extension?.['status']).toBe('installed');
      // The displays are declared once the schema exists: a cache clear after the installer.
      await api3(real, 'System', 'flush', {});
      const [stageField] = await crm.api4('CustomField', 'get', {
        select: ['option_group_id'],
        where: [
          ['custom_group_id:name', '=', group],
          ['name', '=', 'Stage'],
        ],
      });
      const stages = await crm.api4('OptionValue', 'get', {
        select: ['value', 'label'],
        where: [['option_group_id', '=', Number(stageField?.['option_group_id'])]],
        orderBy: { weight: 'ASC' },
      });
      const [earlier, later] = [stages[2], stages[1]] as Record<string, unknown>[];
      const quiet = await seedCoop(crm, `${real.target} portfolio`);
      const day = 86_400_000;
      const now = Date.now();
      // first: stages set by staff (the newer one counts), owner check-ins this quarter and long ago.
      await checkIn(first.orgId, first.personId, new Date(now - 400 * day), {
        [`${group}.Stage`]: earlier?.['value'],
      });
      await checkIn(first.orgId, first.personId, new Date(now - 300 * day), {
        [`${group}.Stage`]: later?.['value'],
      });
      await checkIn(first.orgId, first.personId, new Date(now - 60_000), {
        [`${group}.Submission_ID`]: `portfolio-${first.stamp}-1`,
      });
      await checkIn(first.orgId, first.personId, new Date(now - 200 * day), {
        [`${group}.Submission_ID`]: `portfolio-${first.stamp}-2`,
      });
      // second: one owner check-in, in an earlier quarter; no stage yet.
      await checkIn(second.orgId, second.personId, new Date(now - 200 * day), {
        [`${group}.Submission_ID`]: `portfolio-${second.stamp}-1`,
      });
      const ours = [first.orgId, second.orgId, quiet.orgId];

      const portfolio = await run('Checkin_portfolio', ours);
      expect([...portfolio.keys()].sort((a, b) => a - b)).toEqual([first.orgId, second.orgId]);
      expect(portfolio.get(first.orgId)?.data).toMatchObject({
        current_stage: [later?.['label']],
        checkins_this_quarter: 1,
      });
      expect(String(portfolio.get(first.orgId)?.data['last_owner_checkin'])).toMatch(
        new RegExp(`^${localDateTime(new Date(now - 60_000)).slice(0, 16)}`),
      );
      expect(portfolio.get(second.orgId)?.data).toMatchObject({ checkins_this_quarter: 0 });
      expect(portfolio.get(second.orgId)?.columns[1]?.val).toBe('Inquiry');
      const links = portfolio.get(first.orgId)?.columns.flatMap((column) => column.links ?? []) ?? [];
      expect(links.map((link) => link.url)).toContain(
        `/civicrm/checkin-staff-report?reset=1&cid=${first.orgId}`,
      );

      const behind = await run('Checkin_portfolio_no_checkin_this_quarter', ours);
      expect([...behind.keys()]).toEqual([second.orgId]);
    });
  });
});
