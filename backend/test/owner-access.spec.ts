import { DEMO_PERSON_ID, OTHER_ORG_ID } from '../src/app/crm/in-memory/demo-data';
import { ownerQuery, TEST_API_KEY, DEMO_LINK } from './support/test-app';
import { sharedTestApp } from './support/shared-app';

/** The owner routes that read with the link's parameters. */
const READ_ROUTES = ['/api/data', '/api/report'];

describe('owner access over HTTP (live mode against the CRM emulator)', () => {
  const test = sharedTestApp(
    {
      env: { CRM_BASIC_AUTH_USER: 'webserver', CRM_BASIC_AUTH_PASSWORD: 'webserver-password-42' },
    },
    { resetEmulator: false },
  );

  beforeEach(() => {
    test.emulator.reset();
    test.emulator.clearCalls();
  });

  it.each(READ_ROUTES)('%s answers a valid link', async (route) => {
    const response = await test.get(`${route}?${ownerQuery(DEMO_LINK)}`);
    expect(response.status).toBe(200);
  });

  it.each(READ_ROUTES)(
    '%s refuses a wrong checksum with 401 and asks the CRM nothing after the check',
    async (route) => {
      const response = await test.get(
        `${route}?${ownerQuery({ ...DEMO_LINK, cs: '0123456789abcdef0123456789abcdef_1767225600_inf' })}`,
      );
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ statusCode: 401, code: 'CHECKSUM_INVALID' });
      const calls = test.emulator.calls;
      // The validation, the relationship read and the route's reads, in one request; nothing after.
      expect(calls.slice(0, 2).map((call) => `${call.entity}.${call.action}`)).toEqual([
        'Contact.validateChecksum',
        'Relationship.get',
      ]);
      expect(new Set(calls.map((call) => call.at)).size).toBe(1);
      expect(calls.slice(2).every((call) => call.action === 'get')).toBe(true);
    },
  );

  it.each(READ_ROUTES)('%s refuses a missing checksum with 401 without calling the CRM', async (route) => {
    const response = await test.get(
      `${route}?${ownerQuery({ contactId: DEMO_PERSON_ID, cid: DEMO_PERSON_ID })}`,
    );
    expect(response.status).toBe(401);
    expect(test.emulator.calls).toEqual([]);
  });

  it.each(READ_ROUTES)('%s refuses an organization not tied to cid with 403', async (route) => {
    const response = await test.get(`${route}?${ownerQuery({ ...DEMO_LINK, orgId: OTHER_ORG_ID })}`);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'ORG_NOT_ALLOWED' });
  });

  it.each(READ_ROUTES)('%s refuses a contactId other than cid with 403', async (route) => {
    const response = await test.get(
      `${route}?${ownerQuery({ ...DEMO_LINK, contactId: DEMO_PERSON_ID + 1 })}`,
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'CONTACT_MISMATCH' });
  });

  it('sends X-Civi-Auth and the webserver Basic Auth on every CRM request, and no secret in a URL', async () => {
    await test.get(`/api/data?${ownerQuery(DEMO_LINK)}`);
    await test.get(`/api/report?${ownerQuery(DEMO_LINK)}`);
    expect(test.emulator.calls.length).toBeGreaterThan(3);
    const basic = `Basic ${Buffer.from('webserver:webserver-password-42').toString('base64')}`;
    for (const call of test.emulator.calls) {
      expect(call.headers['x-civi-auth']).toBe(`Bearer ${TEST_API_KEY}`);
      expect(call.headers['authorization']).toBe(basic);
      expect(call.path).not.toContain(TEST_API_KEY);
      expect(call.path).not.toContain('webserver-password-42');
    }
  });

  it('never writes a secret to the logs', async () => {
    await test.get(`/api/data?${ownerQuery(DEMO_LINK)}`);
    await test.get(`/api/data?${ownerQuery({ ...DEMO_LINK, cs: 'wrong' })}`);
    const logs = test.logs.join('\n');
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of [
      TEST_API_KEY,
      'webserver-password-42',
      test.config.staffReportKey ?? '',
      test.config.adminKey ?? '',
    ]) {
      expect(logs).not.toContain(secret);
    }
  });
});

describe('a CRM in trouble', () => {
  const test = sharedTestApp({ env: { CRM_TIMEOUT_MS: '300' } });

  it.each([
    ['down', 502, 'CRM_UNAVAILABLE'],
    ['http500', 502, 'CRM_UNAVAILABLE'],
    ['http401', 502, 'CRM_CREDENTIALS_REFUSED'],
    ['malformed', 502, 'CRM_UNAVAILABLE'],
    ['slow', 504, 'CRM_TIMEOUT'],
  ] as const)('a CRM that is %s yields %i %s with the error body', async (kind, status, code) => {
    test.emulator.injectFault({ kind, delayMs: 1000 });
    const started = Date.now();
    const response = await test.get(`/api/data?${ownerQuery(DEMO_LINK)}`);
    expect(response.status).toBe(status);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({ statusCode: status, code, message: expect.any(String) });
    expect(JSON.stringify(body)).not.toMatch(/stack|civicrm|Error:/i);
    // Within the timeout plus a second, even with one retry of a read.
    expect(Date.now() - started).toBeLessThan(300 * 2 + 1000);
  });

  it('answers again as soon as the CRM recovers', async () => {
    test.emulator.injectFault({ kind: 'http500' });
    expect((await test.get(`/api/data?${ownerQuery(DEMO_LINK)}`)).status).toBe(502);
    test.emulator.clearFaults();
    expect((await test.get(`/api/data?${ownerQuery(DEMO_LINK)}`)).status).toBe(200);
  });
});
