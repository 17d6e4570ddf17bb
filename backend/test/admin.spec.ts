import type { PreviewLinkResponse } from '@checkin/contract';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  createDemoModel,
  DEMO_ORG_ID,
  DEMO_ORG_NAME,
  DEMO_PERSON_ID,
  INACTIVE_PERSON_ID,
  MULTI_ORG_IDS,
  MULTI_ORG_PERSON_ID,
  OTHER_ORG_ID,
  REVERSED_PERSON_ID,
} from '../src/app/crm/in-memory/demo-data';
import { TEST_ADMIN_KEY } from './support/test-app';
import {
  ADMIN_KEY_INVALID,
  expectErrorAnswer,
  expectRefusedBeforeCrm,
  sharedTestApp,
} from './support/shared-app';

const PUBLIC_BASE_URL = 'https://checkin.example.org';
const ADMIN = { 'X-Admin-Key': TEST_ADMIN_KEY };
const HOUR_MS = 3_600_000;
const FRONTEND_INDEX = join(__dirname, '..', '..', 'dist', 'frontend', 'browser', 'index.html');

/** The path and query of a link, to open it on the test server instead of the public address. */
function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

describe('POST /api/preview-link (live mode against the CRM emulator)', () => {
  const test = sharedTestApp({ emulator: { model: createDemoModel() }, env: { PUBLIC_BASE_URL } });

  async function previewLink(body: unknown): Promise<PreviewLinkResponse> {
    const response = await test.post('/api/preview-link', body, ADMIN);
    expect(response.status).toBe(200);
    return (await response.json()) as PreviewLinkResponse;
  }

  it('answers form, report and staff links built from a checksum the CRM made', async () => {
    const before = Date.now();
    const links = await previewLink({ contactId: DEMO_PERSON_ID, orgId: DEMO_ORG_ID });

    const [checksumCall, ...others] = test.emulator.callsTo('Contact', 'getChecksum');
    expect(others).toEqual([]);
    expect(checksumCall?.params).toEqual({ contactId: DEMO_PERSON_ID, ttl: 168 });
    const checksum = new URL(links.formUrl).searchParams.get('cs') ?? '';
    expect(checksum).toMatch(/^[0-9a-f]{32}_\d+_168$/);

    const owner = `contactId=${DEMO_PERSON_ID}&orgId=${DEMO_ORG_ID}&cid=${DEMO_PERSON_ID}&cs=${checksum}`;
    expect(links).toEqual({
      formUrl: `${PUBLIC_BASE_URL}/?${owner}`,
      reportUrl: `${PUBLIC_BASE_URL}/report?${owner}`,
      staffUrl: `${PUBLIC_BASE_URL}/staff?orgId=${DEMO_ORG_ID}`,
      expiresAt: expect.any(String),
    });
    const expiresAt = Date.parse(links.expiresAt ?? '');
    expect(expiresAt).toBeGreaterThanOrEqual(before + 168 * HOUR_MS - 1_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 168 * HOUR_MS);
  });

  it('never puts a staff or admin key in a link', async () => {
    const links = await previewLink({ contactId: DEMO_PERSON_ID });
    const text = JSON.stringify(links);
    expect(text).not.toContain(TEST_ADMIN_KEY);
    expect(text).not.toContain(test.config.staffReportKey ?? 'no staff key');
    expect(new URL(links.staffUrl).searchParams.has('key')).toBe(false);
  });

  it('makes links whose form data and report open with their own parameters', async () => {
    const links = await previewLink({ contactId: DEMO_PERSON_ID, orgId: DEMO_ORG_ID, ttlHours: 2 });
    test.emulator.clearCalls();

    const data = await test.get(`/api/data${new URL(links.formUrl).search}`);
    expect(data.status).toBe(200);
    expect(await data.json()).toMatchObject({ organization: { id: DEMO_ORG_ID, name: DEMO_ORG_NAME } });

    const report = await test.get(`/api/report${new URL(links.reportUrl).search}`);
    expect(report.status).toBe(200);
    expect(await report.json()).toMatchObject({ orgName: DEMO_ORG_NAME });
    expect(test.emulator.writes()).toEqual([]);
  });

  const pagesBuilt = existsSync(FRONTEND_INDEX);
  (pagesBuilt ? it : it.skip)('makes links whose pages answer with the built front end', async () => {
    const links = await previewLink({ contactId: DEMO_PERSON_ID });
    for (const link of [links.formUrl, links.reportUrl, links.staffUrl]) {
      const page = await test.get(pathOf(link));
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toContain('<app-root');
    }
  });

  it('asks for a checksum that never expires with ttlHours 0, and says so', async () => {
    const links = await previewLink({ contactId: DEMO_PERSON_ID, ttlHours: 0 });
    expect(links.expiresAt).toBeNull();
    expect(test.emulator.callsTo('Contact', 'getChecksum')[0]?.params).toEqual({
      contactId: DEMO_PERSON_ID,
      ttl: 0,
    });
    expect(new URL(links.formUrl).searchParams.get('cs')).toMatch(/_inf$/);
  });

  it("uses the person's only organization when orgId is left out", async () => {
    const links = await previewLink({ contactId: DEMO_PERSON_ID });
    expect(new URL(links.formUrl).searchParams.get('orgId')).toBe(String(DEMO_ORG_ID));
  });

  it('makes a link for each organization of a person who has several, when orgId names one', async () => {
    const links = await previewLink({ contactId: MULTI_ORG_PERSON_ID, orgId: MULTI_ORG_IDS[1] });
    expect(links.staffUrl).toBe(`${PUBLIC_BASE_URL}/staff?orgId=${MULTI_ORG_IDS[1]}`);
  });

  describe('refusals (no link, and nothing written to the CRM)', () => {
    afterEach(() => expect(test.emulator.writes()).toEqual([]));

    it.each([
      ['no key', {}],
      ['a wrong key', { 'X-Admin-Key': 'not-the-admin-key-at-all' }],
      ['the key in another header', { 'X-Staff-Key': TEST_ADMIN_KEY }],
    ])('refuses %s with 401 before calling the CRM', async (_case, headers) => {
      const response = await test.post('/api/preview-link', { contactId: DEMO_PERSON_ID }, headers);
      await expectRefusedBeforeCrm(test, response, ADMIN_KEY_INVALID);
    });

    it('asks for orgId when the person is the primary contact of several organizations', async () => {
      const response = await test.post('/api/preview-link', { contactId: MULTI_ORG_PERSON_ID }, ADMIN);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ statusCode: 400, code: 'ORG_REQUIRED' });
    });

    it.each([
      ['an organization not tied to the person', DEMO_PERSON_ID, OTHER_ORG_ID],
      ['a person whose only relationship has ended', INACTIVE_PERSON_ID, undefined],
      ['a person whose relationship was entered backwards', REVERSED_PERSON_ID, undefined],
    ])('refuses %s with 403', async (_case, contactId, orgId) => {
      const response = await test.post('/api/preview-link', { contactId, orgId }, ADMIN);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ statusCode: 403, code: 'ORG_NOT_ALLOWED' });
    });

    it('refuses an unknown contact with 404 and asks for no checksum', async () => {
      const response = await test.post('/api/preview-link', { contactId: 987654 }, ADMIN);
      await expectErrorAnswer(response, {
        status: 404,
        code: 'NOT_FOUND',
        message: 'No contact has the id 987654.',
      });
      expect(test.emulator.callsTo('Contact', 'getChecksum')).toEqual([]);
    });

    it.each([
      ['no body', undefined],
      ['no contactId', { orgId: DEMO_ORG_ID }],
      ['a contactId in words', { contactId: 'one hundred and two' }],
      ['a contactId as text', { contactId: String(DEMO_PERSON_ID) }],
      ['a negative contactId', { contactId: -DEMO_PERSON_ID }],
      ['a fractional orgId', { contactId: DEMO_PERSON_ID, orgId: 101.5 }],
      ['a negative ttlHours', { contactId: DEMO_PERSON_ID, ttlHours: -1 }],
      ['a ttlHours over a year', { contactId: DEMO_PERSON_ID, ttlHours: 8761 }],
      ['an unknown field', { contactId: DEMO_PERSON_ID, staffKey: 'x' }],
      ['an array', [DEMO_PERSON_ID]],
    ])('refuses %s with 400 and a readable message, before calling the CRM', async (_case, body) => {
      const response = await test.post('/api/preview-link', body === undefined ? '' : body, ADMIN);
      expect(response.status).toBe(400);
      const error = (await response.json()) as { statusCode: number; code: string; message: string };
      expect(error).toMatchObject({ statusCode: 400, code: expect.any(String), message: expect.any(String) });
      expect(error.message.length).toBeGreaterThan(10);
      expect(test.emulator.calls).toEqual([]);
    });

    it('refuses a body over 1 MB with 413', async () => {
      const response = await test.post(
        '/api/preview-link',
        { contactId: DEMO_PERSON_ID, padding: 'x'.repeat(1_100_000) },
        ADMIN,
      );
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' });
      expect(test.emulator.calls).toEqual([]);
    });

    it('answers 502 with the error body when the CRM cannot make a checksum', async () => {
      test.emulator.injectFault({ kind: 'http500', entity: 'Contact', action: 'getChecksum' });
      const response = await test.post('/api/preview-link', { contactId: DEMO_PERSON_ID }, ADMIN);
      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({ statusCode: 502, code: 'CRM_UNAVAILABLE' });
    });
  });
});

describe('POST /api/preview-link in stub mode', () => {
  const test = sharedTestApp(
    { stub: true, env: { ADMIN_KEY: '', STAFF_REPORT_KEY: '' } },
    { resetEmulator: false },
  );

  it('accepts the demo admin key and makes links that open against the built-in demo data', async () => {
    const response = await test.post(
      '/api/preview-link',
      { contactId: DEMO_PERSON_ID },
      { 'X-Admin-Key': 'demo' },
    );
    expect(response.status).toBe(200);
    const links = (await response.json()) as PreviewLinkResponse;
    expect((await test.get(`/api/report${new URL(links.reportUrl).search}`)).status).toBe(200);
    expect(test.emulator.calls).toEqual([]);
  });
});
