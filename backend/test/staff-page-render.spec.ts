import { mintStaffLink } from '../src/app/auth/staff-link-token';
import { DEMO_ORG_ID, DEMO_ORG_NAME, MULTI_ORG_IDS } from '../src/app/crm/in-memory/demo-data';
import { requireFrontendServerBuild, startTestApp, TEST_STAFF_KEY, type TestApp } from './support/test-app';

/**
 * The staff page opened from its link (`/staff?orgId=O&key=K`) arrives rendered by the service with
 * its data, read as `GET /api/staff/report` reads it, with the link's key checked as that route
 * checks its header (docs/performance.md, "The staff page rendered from its link"). Needs the
 * front end's build (its server entry), as the test runner makes it before the back end's tests.
 */
const STAFF_LINK_KEY = 'staff-link-key-for-tests-0123456789abcdef';
const [OTHER_ORG_ID] = MULTI_ORG_IDS;

/** The page's data as the render handed it to the browser (Angular's transfer state). */
function pageData(html: string): { url: string; status: number; body: Record<string, unknown> } {
  const state = /<script[^>]*\sid="ng-state"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1];
  expect(state).toBeDefined();
  return (JSON.parse(state ?? '{}') as Record<string, never>)['checkin.pageData'];
}

const callNames = (test: TestApp) => test.emulator.calls.map((call) => `${call.entity}.${call.action}`);

describe('the staff page rendered from its link', () => {
  let test: TestApp;

  requireFrontendServerBuild();

  beforeEach(async () => {
    test = await startTestApp({ env: { STAFF_LINK_KEY, RATE_LIMIT_CHECKSUM_FAILURES: '3' } });
  });

  afterEach(async () => {
    await test?.close();
  });

  const openPage = (query: string, headers: Record<string, string> = {}) =>
    test.get(`/staff?${query}`, { Accept: 'text/html', ...headers });

  it('arrives with the report inside, personal and uncached, every inline script with its nonce, the key nowhere', async () => {
    const response = await openPage(`orgId=${DEMO_ORG_ID}&key=${TEST_STAFF_KEY}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('etag')).toBeNull();
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const nonce = /'nonce-([\w-]+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1];
    expect(nonce).toBeDefined();
    const html = await response.text();
    expect(html).toContain(`<h1 `);
    expect(html).toContain(DEMO_ORG_NAME);
    expect(html).toContain('id="staff-stage-0"');
    for (const [tag] of html.matchAll(/<script\b(?![^>]*\ssrc=)[^>]*>/g))
      expect(tag).toContain(`nonce="${nonce}"`);
    expect(html).not.toContain(TEST_STAFF_KEY);
    expect(test.logs.join('\n')).not.toContain(TEST_STAFF_KEY);
    const data = pageData(html);
    expect(data).toMatchObject({ url: `/api/staff/report?orgId=${DEMO_ORG_ID}`, status: 200 });
    expect(data.body).toMatchObject({ organization: { id: DEMO_ORG_ID, name: DEMO_ORG_NAME } });
  });

  it('asks the CRM exactly what GET /api/staff/report asks', async () => {
    const api = () => test.get(`/api/staff/report?orgId=${DEMO_ORG_ID}`, { 'X-Staff-Key': TEST_STAFF_KEY });
    expect((await api()).status).toBe(200);
    test.emulator.clearCalls();
    expect((await api()).status).toBe(200);
    const byApi = callNames(test);
    test.emulator.clearCalls();
    await (await openPage(`orgId=${DEMO_ORG_ID}&key=${TEST_STAFF_KEY}`)).text();
    expect(callNames(test)).toEqual(byApi);
  });

  it('refuses a wrong key before asking the CRM anything, and counts it like a wrong header', async () => {
    const refused = await openPage(`orgId=${DEMO_ORG_ID}&key=not-the-key`);
    // The status its data route answers (docs/decisions.md, "Page statuses"), with the page.
    expect(refused.status).toBe(401);
    const html = await refused.text();
    expect(html).not.toContain('not-the-key');
    expect(pageData(html)).toEqual({
      url: `/api/staff/report?orgId=${DEMO_ORG_ID}`,
      status: 401,
      body: { statusCode: 401, code: 'STAFF_KEY_INVALID', message: 'The staff key is missing or wrong.' },
    });
    expect(test.emulator.calls).toEqual([]);

    // Two more wrong keys, one of them in the header: the address is then refused, the right key too.
    await (await openPage(`orgId=${DEMO_ORG_ID}&key=still-not-it`)).text();
    expect(
      (await test.get(`/api/staff/report?orgId=${DEMO_ORG_ID}`, { 'X-Staff-Key': 'nor-this' })).status,
    ).toBe(401);
    const limited = pageData(await (await openPage(`orgId=${DEMO_ORG_ID}&key=${TEST_STAFF_KEY}`)).text());
    expect(limited).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect(test.emulator.calls).toEqual([]);
  });

  it('takes a staff link token from CiviCRM for its own organization only', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 600;
    const token = mintStaffLink({ staffContactId: 77, orgId: DEMO_ORG_ID, expiresAt }, STAFF_LINK_KEY);
    const own = await (await openPage(`orgId=${DEMO_ORG_ID}&key=${token}`)).text();
    expect(pageData(own)).toMatchObject({ status: 200, body: { organization: { id: DEMO_ORG_ID } } });
    expect(own).not.toContain(token);
    const other = pageData(await (await openPage(`orgId=${OTHER_ORG_ID}&key=${token}`)).text());
    expect(other).toMatchObject({ status: 401, body: { code: 'STAFF_KEY_INVALID' } });
  });

  it('answers a bad organization id with the error the API gives', async () => {
    const data = pageData(await (await openPage(`orgId=abc&key=${TEST_STAFF_KEY}`)).text());
    expect(data).toMatchObject({
      url: '/api/staff/report?orgId=abc',
      status: 400,
      body: { code: 'BAD_REQUEST' },
    });
    expect(test.emulator.calls).toEqual([]);
  });

  it('is built in the browser when the address carries no key (the page reopened in its tab)', async () => {
    for (const query of [`orgId=${DEMO_ORG_ID}`, `orgId=${DEMO_ORG_ID}&key=`, `key=${TEST_STAFF_KEY}`]) {
      const response = await openPage(query);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).not.toContain('ng-server-context');
      expect(html).not.toContain('id="ng-state"');
    }
    expect(test.emulator.calls).toEqual([]);
  });
});
