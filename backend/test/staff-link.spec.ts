import { mintStaffLink } from '../src/app/auth/staff-link-token';
import { DEMO_ORG_ID, MULTI_ORG_IDS } from '../src/app/crm/in-memory/demo-data';
import { startTestApp, TEST_STAFF_KEY, type TestApp } from './support/test-app';

/**
 * The staff report opened from CiviCRM's organization record (docs/organizer-guide.md): a token
 * the extension signs with STAFF_LINK_KEY stands in for the staff key, for its organization only.
 */
const STAFF_LINK_KEY = 'staff-link-key-for-tests-0123456789abcdef';
const [OTHER_ORG_ID] = MULTI_ORG_IDS;

function linkFor(orgId: number, expiresInSeconds = 600, key = STAFF_LINK_KEY): string {
  const expiresAt = Math.floor(Date.now() / 1000) + expiresInSeconds;
  return mintStaffLink({ staffContactId: 77, orgId, expiresAt }, key);
}

describe('staff links from CiviCRM', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await startTestApp({ env: { STAFF_LINK_KEY } });
  });

  afterAll(async () => {
    await test?.close();
  });

  beforeEach(() => test.emulator.clearCalls());

  const report = (orgId: number, key: string) =>
    test.get(`/api/staff/report?orgId=${orgId}`, { 'X-Staff-Key': key });

  it('opens the staff report of the organization the link was signed for, and logs who opened it', async () => {
    const token = linkFor(DEMO_ORG_ID);
    const response = await report(DEMO_ORG_ID, token);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { organization: { id: number } }).organization.id).toBe(DEMO_ORG_ID);
    const logs = test.logs.join('\n');
    expect(logs).toContain(`staff report of organization ${DEMO_ORG_ID} opened by CiviCRM contact 77`);
    expect(logs).not.toContain(token);
    expect(logs).not.toContain(token.slice(token.lastIndexOf('.') + 1));
  });

  it('refuses it for another organization before asking the CRM anything', async () => {
    const response = await report(OTHER_ORG_ID, linkFor(DEMO_ORG_ID));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ statusCode: 401, code: 'STAFF_KEY_INVALID' });
    expect(test.emulator.calls).toHaveLength(0);
  });

  it('refuses an expired link and one signed with another key', async () => {
    expect((await report(DEMO_ORG_ID, linkFor(DEMO_ORG_ID, -1))).status).toBe(401);
    expect(
      (await report(DEMO_ORG_ID, linkFor(DEMO_ORG_ID, 600, 'not-the-service-key-0123456789abcdef'))).status,
    ).toBe(401);
  });

  it('keeps accepting the shared staff key', async () => {
    expect((await report(OTHER_ORG_ID, TEST_STAFF_KEY)).status).toBe(200);
  });
});

describe('staff links without STAFF_LINK_KEY', () => {
  it('are refused, and the staff key still works', async () => {
    const test = await startTestApp();
    try {
      const signed = linkFor(DEMO_ORG_ID);
      expect(
        (await test.get(`/api/staff/report?orgId=${DEMO_ORG_ID}`, { 'X-Staff-Key': signed })).status,
      ).toBe(401);
      expect(
        (await test.get(`/api/staff/report?orgId=${DEMO_ORG_ID}`, { 'X-Staff-Key': TEST_STAFF_KEY })).status,
      ).toBe(200);
    } finally {
      await test.close();
    }
  });
});
