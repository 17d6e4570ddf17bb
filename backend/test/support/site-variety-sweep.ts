import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CrmProxy } from '../../bench/support/crm-proxy';
import type { RunningService } from './test-app';
import { TEST_STAFF_KEY } from './test-app';
import { type BuiltCoop, type BuiltPerson, type BuiltSite } from './site-variety';
import { markupMark } from './site-variety-plan';

/**
 * Every owner and staff route and rendered page of the service over a built site shape
 * (support/site-variety.ts), each answer kept with the CRM traffic it cost, counted on the wire
 * by a proxy between the service and CiviCRM (bench/support/crm-proxy.ts). The specs assert on
 * the visits; this only makes them.
 */

export interface Visit {
  /** e.g. `GET /api/staff/report (long)`. */
  name: string;
  coop: BuiltCoop;
  status: number;
  contentType: string;
  body: string;
  /** CiviCRM requests and the bytes of their answers, while this visit was served. */
  crmRequests: number;
  crmBytes: number;
  /** How long the service took to answer it. */
  ms: number;
}

export interface Sweep {
  visits: Visit[];
  /** Routes visited once before, so the service's caches hold the site's metadata. */
  warm: Visit[];
}

/** Whose link opens which co-op: every co-op with each of its Primary Contacts. */
export function ownerLinks(site: BuiltSite): Array<{ coop: BuiltCoop; person: BuiltPerson }> {
  const { coops, owner, sharedOwners } = site;
  return [
    { coop: coops.long, person: owner },
    { coop: coops.second, person: owner },
    { coop: coops.empty, person: owner },
    { coop: coops.shared, person: sharedOwners[0] },
    { coop: coops.shared, person: sharedOwners[1] },
  ];
}

export function linkQuery(coop: BuiltCoop, person: BuiltPerson): string {
  return new URLSearchParams({
    contactId: String(person.personId),
    orgId: String(coop.orgId),
    cid: String(person.personId),
    cs: person.checksum,
  }).toString();
}

/**
 * The read routes and pages. A first round over one co-op warms the service's caches of the
 * site's metadata (fields, options, site settings); the second, over every co-op, is measured.
 */
export async function sweepReads(service: RunningService, proxy: CrmProxy, site: BuiltSite): Promise<Sweep> {
  const visits: Visit[] = [];
  const warm: Visit[] = [];
  const html = { Accept: 'text/html' };
  const staffHeader = { 'X-Staff-Key': TEST_STAFF_KEY };
  for (const round of [warm, visits]) {
    const links = round === warm ? ownerLinks(site).slice(1, 2) : ownerLinks(site);
    const coops = round === warm ? [site.coops.second] : Object.values(site.coops);
    for (const { coop, person } of links) {
      const link = linkQuery(coop, person);
      const who = `${coop.key}, person ${person.personId}`;
      round.push(await visit(service, proxy, `GET /api/data (${who})`, coop, `/api/data?${link}`));
      round.push(await visit(service, proxy, `GET /api/report (${who})`, coop, `/api/report?${link}`));
      round.push(await visit(service, proxy, `GET / (${who})`, coop, `/?${link}`, html));
      round.push(await visit(service, proxy, `GET /report (${who})`, coop, `/report?${link}`, html));
      round.push(
        await visit(service, proxy, `GET /api/organizations (${who})`, coop, `/api/organizations?${link}`),
      );
    }
    for (const coop of coops) {
      round.push(
        await visit(
          service,
          proxy,
          `GET /api/staff/report (${coop.key})`,
          coop,
          `/api/staff/report?orgId=${coop.orgId}`,
          staffHeader,
        ),
      );
      round.push(
        await visit(
          service,
          proxy,
          `GET /staff (${coop.key})`,
          coop,
          `/staff?orgId=${coop.orgId}&key=${TEST_STAFF_KEY}`,
          html,
        ),
      );
    }
    round.push(await visit(service, proxy, 'GET /api/organizer', site.coops.long, '/api/organizer'));
    round.push(await visit(service, proxy, 'GET /api/health/ready', site.coops.long, '/api/health/ready'));
  }
  return { visits, warm };
}

async function visit(
  service: RunningService,
  proxy: CrmProxy,
  name: string,
  coop: BuiltCoop,
  path: string,
  headers: Record<string, string> = {},
): Promise<Visit> {
  const before = proxy.calls.length;
  const began = Date.now();
  const response = await service.get(path, headers);
  const body = await response.text();
  const ms = Date.now() - began;
  // The proxy notes a call once its answer has gone out: one more turn of the event loop.
  await nextTurn();
  const calls = proxy.calls.slice(before);
  return {
    name,
    coop,
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    body,
    crmRequests: calls.length,
    crmBytes: calls.reduce((sum, call) => sum + call.bytes, 0),
    ms,
  };
}

/** What an HTML page must never hold raw: the shape's markup, unescaped. */
export function unescapedMarkup(visit: Visit, tag: string): string[] {
  if (!visit.contentType.startsWith('text/html')) return [];
  const found: string[] = [];
  for (const raw of [markupMark(tag), `<script>alert("${tag}")</script>`, `<than>`, 'Fish <&> Chips']) {
    if (visit.body.includes(raw)) found.push(raw);
  }
  return found;
}

/** Text the shape wrote with `<` or `&`, come back HTML-encoded in a JSON answer. */
export function encodedInJson(visit: Visit, tag: string): string[] {
  if (!visit.contentType.startsWith('application/json')) return [];
  return [
    `&lt;b data-variety=&quot;${tag}`,
    `&lt;b data-variety="${tag}`,
    'Less &lt;than&gt;',
    'Bread&amp;Ltd.',
    'Ça &amp; Là',
    'Fish &amp;lt;',
  ].filter((encoded) => visit.body.includes(encoded));
}

/** Marks of other co-ops' data found in a visit of one co-op. */
export function foreignMarks(visit: Visit, site: BuiltSite): string[] {
  return Object.values(site.coops)
    .filter((coop) => coop.key !== visit.coop.key)
    .map((coop) => coop.mark)
    .filter((mark) => visit.body.includes(mark));
}

/**
 * The CRM traffic a warm visit may cost: reads are one CiviCRM request (docs/performance.md,
 * "Bounded answers"), two at most where a route reads a second slice, and their answers grow
 * with the co-op's check-ins only.
 */
export function trafficBudget(visit: Visit): { requests: number; bytes: number } {
  const perCheckIn = 4_000;
  return { requests: 2, bytes: 150_000 + perCheckIn * visit.coop.checkIns };
}
