import { randomUUID } from 'node:crypto';
import type { CrmClient } from '../../src/app/crm/crm-client';
import type { RunningService } from '../support/test-app';
import { fixture, type SeededCoop, seedCoop } from './civicrm-site';

/**
 * Scenarios whose answers must be the same whichever CiviCRM the service talks to: the real one
 * (routes.real.spec.ts) and the emulator the fast suites use. Each answer is reduced to what does
 * not depend on ids or clocks, so the two runs can be compared as a whole; a difference means the
 * emulator no longer models CiviCRM and must be corrected.
 */
export interface ScenarioAnswer {
  status: number;
  /** The body with ids, checksums and times replaced by their kind. */
  body: unknown;
}

export async function runContractScenarios(
  service: RunningService,
  crm: CrmClient,
): Promise<Record<string, ScenarioAnswer>> {
  const coop = await seedCoop(crm, 'contract');
  const link = linkOf(coop);
  const answers: Record<string, ScenarioAnswer> = {};
  const record = async (name: string, response: Promise<Response>) => {
    const answer = await response;
    answers[name] = { status: answer.status, body: normalize(await answer.json(), coop) };
  };

  await record('data', service.get(`/api/data?${link}`));
  await record(
    'data with a wrong checksum',
    service.get(`/api/data?${linkOf({ ...coop, checksum: `${coop.checksum}x` })}`),
  );
  await record(
    'data of a foreign organization',
    service.get(`/api/data?${linkOf({ ...coop, orgId: coop.foreignOrgId })}`),
  );
  await record('report before any check-in', service.get(`/api/report?${link}`));
  await record('submit with a 64-bit count', submit(service, coop, { Interest_list_size: 3_000_000_000 }));
  await record('submit with a third decimal of money', submit(service, coop, { Equity_raised: 12.345 }));
  // Submit's first batch with a contact update beside the lookup, then a create refused in the
  // second batch after that update (docs/performance.md, "Submit in two requests").
  await record(
    'submit with an organization value',
    submit(service, coop, { Equity_share: 40, Organizing_notes: 'Shares on sale' }),
  );
  await record(
    'submit with an organization value and a 64-bit count',
    submit(service, coop, { Equity_share: 45, Interest_list_size: 3_000_000_000 }),
  );
  await record(
    'upload with a space in its name',
    upload(service, coop, 'market study.pdf', 'sample.pdf', 'application/pdf'),
  );
  const submissionId = randomUUID();
  const values = { Steering_committee_size: 7, Equity_raised: 1250.5, Organizing_notes: 'Met the landlord' };
  await record('submit', submit(service, coop, values, submissionId));
  await record('submit again (retry)', submit(service, coop, values, submissionId));
  await record('report after a check-in', service.get(`/api/report?${link}`));
  return answers;
}

export function linkOf(coop: Pick<SeededCoop, 'personId' | 'orgId' | 'checksum'>): string {
  return new URLSearchParams({
    contactId: String(coop.personId),
    orgId: String(coop.orgId),
    cid: String(coop.personId),
    cs: coop.checksum,
  }).toString();
}

export function submit(
  service: RunningService,
  coop: SeededCoop,
  values: Record<string, unknown>,
  submissionId = randomUUID(),
): Promise<Response> {
  return service.post('/api/submit', {
    cid: String(coop.personId),
    cs: coop.checksum,
    contactId: coop.personId,
    orgId: coop.orgId,
    submissionId,
    values,
  });
}

export function upload(
  service: RunningService,
  coop: SeededCoop,
  fileName: string,
  fixtureName: string,
  mimeType: string,
  fieldRef = 'Certificate_of_Incorporation',
): Promise<Response> {
  const form = new FormData();
  form.set('cid', String(coop.personId));
  form.set('cs', coop.checksum);
  form.set('contactId', String(coop.personId));
  form.set('orgId', String(coop.orgId));
  form.set('fieldRef', fieldRef);
  form.set('file', new Blob([fixture(fixtureName)], { type: mimeType }), fileName);
  return fetch(`${service.url}/api/upload`, { method: 'POST', body: form });
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * Site data, not behaviour: option lists are whatever each site was set up with (the emulator's
 * demo data, the installer's lists on the real one).
 */
const SITE_DATA_KEYS: ReadonlySet<string> = new Set(['options', 'stages', 'currentStage']);

/** Ids, the seeded names and instants replaced by placeholders; site data left out; the rest kept. */
function normalize(value: unknown, coop: SeededCoop, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => normalize(item, coop));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([name]) => !SITE_DATA_KEYS.has(name))
        .map(([name, inner]) => [name, normalize(inner, coop, name)]),
    );
  }
  if (typeof value === 'number' && /(^id$|Id$|_id$)/.test(key)) return '<id>';
  // A receipt signs ids with a per-process key (README, "Uploads"): only its presence compares.
  if (key === 'receipt' && typeof value === 'string') return '<receipt>';
  if (typeof value === 'string' && ISO_INSTANT.test(value)) return '<instant>';
  if (typeof value === 'string') return value.split(coop.stamp).join('<stamp>').replace(/\d+/g, '<n>');
  return value;
}
