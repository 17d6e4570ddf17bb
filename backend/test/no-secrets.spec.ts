import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createDemoModel,
  DEMO_CHECKSUM,
  DEMO_ORG_ID,
  DEMO_PERSON_ID,
} from '../src/app/crm/in-memory/demo-data';
import { ownerQuery, startTestApp, type TestApp, DEMO_LINK } from './support/test-app';

/**
 * Secrets are settings and never reach a browser (spec, Authentication 4): not in any response
 * body or header of any route, on success or failure, not in the logs, not in the built front end.
 * Each secret gets a distinctive value so a leak anywhere is found by a plain text search.
 */
const BASIC_AUTH_USER = 'webserver-user';
const SECRETS = {
  CRM_API_KEY: 'crm-api-key-7Qf2-leak-probe',
  CRM_SITE_KEY: 'crm-site-key-9Rz4-leak-probe',
  CRM_BASIC_AUTH_PASSWORD: 'basic-password-3Kd8-leak-probe',
  STAFF_REPORT_KEY: 'staff-report-key-5Wn1-leak-probe',
  ADMIN_KEY: 'admin-key-2Hs6-leak-probe',
} as const;
/** What travels to a webserver in front of the CRM: the password, only base64-encoded. */
const BASIC_AUTH_TOKEN = Buffer.from(`${BASIC_AUTH_USER}:${SECRETS.CRM_BASIC_AUTH_PASSWORD}`).toString(
  'base64',
);
const SEARCHED: ReadonlyArray<[name: string, value: string]> = [
  ...Object.entries(SECRETS),
  ['CRM_BASIC_AUTH (base64)', BASIC_AUTH_TOKEN],
];

const FRONTEND_DIST = join(__dirname, '..', '..', 'dist', 'frontend', 'browser');
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

interface Exchange {
  label: string;
  status: number;
  headers: string;
  body: string;
}

const staff = { 'X-Staff-Key': SECRETS.STAFF_REPORT_KEY };
const admin = { 'X-Admin-Key': SECRETS.ADMIN_KEY };
/** The staff link, which the service renders with the staff report in it. */
const staffLink = `/staff?orgId=${DEMO_ORG_ID}&key=${encodeURIComponent(SECRETS.STAFF_REPORT_KEY)}`;

function leaksIn(place: string, text: string): string[] {
  return SEARCHED.filter(([, value]) => text.includes(value)).map(([name]) => `${name} in ${place}`);
}

async function record(label: string, response: Promise<Response>): Promise<Exchange> {
  const answer = await response;
  const headers = [...answer.headers.entries()].map(([name, value]) => `${name}: ${value}`).join('\n');
  return { label, status: answer.status, headers, body: await answer.text() };
}

function upload(test: TestApp): Promise<Response> {
  const form = new FormData();
  form.set('cid', String(DEMO_PERSON_ID));
  form.set('cs', DEMO_CHECKSUM);
  form.set('fieldRef', 'Feasibility_study');
  form.set('file', new Blob([PNG_1X1], { type: 'image/png' }), 'scan.png');
  return fetch(`${test.url}/api/upload`, { method: 'POST', body: form });
}

/** Every route, answered normally, refused, and with the CRM refusing the service's credentials. */
async function exerciseEveryRoute(test: TestApp): Promise<Exchange[]> {
  const submit = { ...DEMO_LINK, submissionId: randomUUID(), values: {} };
  const exchanges = [
    await record('GET /api/data', test.get(`/api/data?${ownerQuery(DEMO_LINK)}`)),
    await record('GET /api/report', test.get(`/api/report?${ownerQuery(DEMO_LINK)}`)),
    await record('GET /api/staff/report', test.get(`/api/staff/report?orgId=${DEMO_ORG_ID}`, staff)),
    await record('POST /api/submit', test.post('/api/submit', submit)),
    await record('POST /api/upload', upload(test)),
    await record('GET /api/health/live', test.get('/api/health/live')),
    await record('GET /api/health/ready', test.get('/api/health/ready')),
    await record('GET /api/health', test.get(`/api/health?contactId=${DEMO_PERSON_ID}`, admin)),
    await record(
      'POST /api/preview-link',
      test.post('/api/preview-link', { contactId: DEMO_PERSON_ID }, admin),
    ),
    await record('GET /staff (page)', test.get(`/staff?orgId=${DEMO_ORG_ID}`)),
    await record('GET /staff (page rendered from its link)', test.get(staffLink)),
    await record('wrong checksum', test.get(`/api/data?${ownerQuery({ ...DEMO_LINK, cs: 'wrong' })}`)),
    await record(
      'wrong staff key',
      test.get(`/api/staff/report?orgId=${DEMO_ORG_ID}`, { 'X-Staff-Key': 'x' }),
    ),
    await record(
      'wrong admin key',
      test.post('/api/preview-link', { contactId: DEMO_PERSON_ID }, { 'X-Admin-Key': 'x' }),
    ),
    await record('unknown API route', test.get('/api/nothing-here')),
  ];
  test.emulator.injectFault({ kind: 'http401' });
  exchanges.push(
    await record(
      'staff report, CRM refuses credentials',
      test.get(`/api/staff/report?orgId=${DEMO_ORG_ID}`, staff),
    ),
    await record('data, CRM refuses credentials', test.get(`/api/data?${ownerQuery(DEMO_LINK)}`)),
    await record('staff page from its link, CRM refuses credentials', test.get(staffLink)),
    await record('health, CRM refuses credentials', test.get('/api/health/ready')),
  );
  test.emulator.clearFaults();
  return exchanges;
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(directory, entry.name)) : [join(directory, entry.name)],
  );
}

describe('no secret reaches a browser', () => {
  let test: TestApp;
  let exchanges: Exchange[];

  beforeAll(async () => {
    test = await startTestApp({
      env: {
        CRM_API_KEY: SECRETS.CRM_API_KEY,
        CRM_SITE_KEY: SECRETS.CRM_SITE_KEY,
        CRM_BASIC_AUTH_USER: BASIC_AUTH_USER,
        CRM_BASIC_AUTH_PASSWORD: SECRETS.CRM_BASIC_AUTH_PASSWORD,
        STAFF_REPORT_KEY: SECRETS.STAFF_REPORT_KEY,
        ADMIN_KEY: SECRETS.ADMIN_KEY,
      },
      emulator: {
        model: createDemoModel(),
        apiKey: SECRETS.CRM_API_KEY,
        siteKey: SECRETS.CRM_SITE_KEY,
        basicAuth: { user: BASIC_AUTH_USER, password: SECRETS.CRM_BASIC_AUTH_PASSWORD },
      },
    });
    exchanges = await exerciseEveryRoute(test);
  });

  afterAll(() => test.close());

  it('used the secrets: the CRM accepted the service and the staff report answered', () => {
    const staffReport = exchanges.find((exchange) => exchange.label === 'GET /api/staff/report');
    expect(staffReport?.status).toBe(200);
    const staffPage = exchanges.find(
      (exchange) => exchange.label === 'GET /staff (page rendered from its link)',
    );
    expect(staffPage?.body).toContain('"status":200');
    expect(test.emulator.calls.some((call) => call.status === 200)).toBe(true);
  });

  it('puts no secret in any response body or header, whatever the route answered', () => {
    const leaks = exchanges.flatMap((exchange) => [
      ...leaksIn(`${exchange.label} (${exchange.status}) body`, exchange.body),
      ...leaksIn(`${exchange.label} (${exchange.status}) headers`, exchange.headers),
    ]);
    expect(leaks).toEqual([]);
  });

  it('writes no secret to the logs', () => {
    expect(test.logs.length).toBeGreaterThan(0);
    expect(leaksIn('the logs', test.logs.join('\n'))).toEqual([]);
  });

  const whenBuilt = existsSync(FRONTEND_DIST) ? it : it.skip;
  whenBuilt('ships no secret in any file of the built front end', () => {
    const files = filesUnder(FRONTEND_DIST);
    expect(files.some((file) => file.endsWith('.js'))).toBe(true);
    const leaks = files.flatMap((file) => leaksIn(file, readFileSync(file, 'latin1')));
    expect(leaks).toEqual([]);
  });
});
