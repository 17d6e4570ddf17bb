import { mintStaffLink } from '../src/app/auth/staff-link-token';
import { FileReceipts } from '../src/app/check-ins/file-receipts';
import { loadAppConfig } from '../src/app/config/app-config';
import { ConfigurationError } from '../src/app/config/environment';
import { DEMO_ORG_ID } from '../src/app/crm/in-memory/demo-data';
import { secretValues } from '../src/app/logging/app-logger';
import { startTestApp, type TestApp } from './support/test-app';

/** docs/rotating-secrets.md: each verifying key accepts the key it replaced until a stated instant, then refuses it. */
const OLD_KEY = 'old-signing-key-0123456789abcdefghijkl';
const NEW_KEY = 'new-signing-key-0123456789abcdefghijkl';
const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

function staffLink(key: string): string {
  return mintStaffLink(
    { staffContactId: 77, orgId: DEMO_ORG_ID, expiresAt: Math.floor(Date.now() / 1000) + 600 },
    key,
  );
}

describe.each([
  ['within the window', inHours(2), 200],
  ['after the window', inHours(-1), 401],
])('STAFF_LINK_KEY rotated, previous key %s', (_case, until, previousKeyStatus) => {
  let test: TestApp;

  beforeAll(async () => {
    test = await startTestApp({
      env: {
        STAFF_LINK_KEY: NEW_KEY,
        STAFF_LINK_KEY_PREVIOUS: OLD_KEY,
        STAFF_LINK_KEY_PREVIOUS_UNTIL: until,
      },
    });
  });

  afterAll(() => test?.close());

  const report = (key: string) => test.get(`/api/staff/report?orgId=${DEMO_ORG_ID}`, { 'X-Staff-Key': key });

  it(`answers ${previousKeyStatus} to a link the previous key signed, 200 to the new key's, 401 to another`, async () => {
    expect((await report(staffLink(OLD_KEY))).status).toBe(previousKeyStatus);
    expect((await report(staffLink(NEW_KEY))).status).toBe(200);
    expect((await report(staffLink('some-other-key-0123456789abcdefghijkl'))).status).toBe(401);
    expect(test.logs.join('\n')).not.toContain(OLD_KEY);
  });
});

describe('UPLOAD_RECEIPT_KEY rotated', () => {
  const subject = { contactId: 102, orgId: 201, field: 'Business_plan', fileId: 77 };
  const now = Math.floor(Date.now() / 1000);
  const issuedWithOldKey = new FileReceipts(loadAppConfig({ UPLOAD_RECEIPT_KEY: OLD_KEY })).issue(
    subject,
    now,
  );
  const rotated = (until: string) =>
    new FileReceipts(
      loadAppConfig({
        UPLOAD_RECEIPT_KEY: NEW_KEY,
        UPLOAD_RECEIPT_KEY_PREVIOUS: OLD_KEY,
        UPLOAD_RECEIPT_KEY_PREVIOUS_UNTIL: until,
      }),
    );

  it("accepts the previous key's receipts until UPLOAD_RECEIPT_KEY_PREVIOUS_UNTIL, then refuses them", () => {
    const receipts = rotated(inHours(1));
    expect(receipts.verify(subject, issuedWithOldKey, now)).toBe(true);
    expect(receipts.verify(subject, issuedWithOldKey, now + 3 * 3600)).toBe(false);
    expect(rotated(inHours(-1)).verify(subject, issuedWithOldKey, now)).toBe(false);
  });

  it('signs with the new key only', () => {
    const receipt = rotated(inHours(1)).issue(subject, now);
    const withNewKeyOnly = new FileReceipts(loadAppConfig({ UPLOAD_RECEIPT_KEY: NEW_KEY }));
    expect(withNewKeyOnly.verify(subject, receipt, now)).toBe(true);
  });

  it('keeps the previous key out of the logs like the current one', () => {
    const config = loadAppConfig({
      UPLOAD_RECEIPT_KEY: NEW_KEY,
      UPLOAD_RECEIPT_KEY_PREVIOUS: OLD_KEY,
      UPLOAD_RECEIPT_KEY_PREVIOUS_UNTIL: inHours(1),
    });
    expect(secretValues(config)).toContain(OLD_KEY);
  });
});

describe('rotation settings that are refused at start, naming the setting', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadAppConfig(env);
      return [];
    } catch (error) {
      return (error as ConfigurationError).problems;
    }
  };

  it.each([
    [
      { STAFF_LINK_KEY: NEW_KEY, STAFF_LINK_KEY_PREVIOUS: OLD_KEY },
      'STAFF_LINK_KEY_PREVIOUS needs STAFF_LINK_KEY_PREVIOUS_UNTIL',
    ],
    [
      {
        UPLOAD_RECEIPT_KEY: NEW_KEY,
        UPLOAD_RECEIPT_KEY_PREVIOUS: OLD_KEY,
        UPLOAD_RECEIPT_KEY_PREVIOUS_UNTIL: inHours(24 * 8),
      },
      'UPLOAD_RECEIPT_KEY_PREVIOUS_UNTIL is more than 7 days ahead',
    ],
    [
      {
        STAFF_LINK_KEY: NEW_KEY,
        STAFF_LINK_KEY_PREVIOUS: NEW_KEY,
        STAFF_LINK_KEY_PREVIOUS_UNTIL: inHours(1),
      },
      'STAFF_LINK_KEY_PREVIOUS is the same as STAFF_LINK_KEY',
    ],
    [
      {
        STAFF_LINK_KEY: NEW_KEY,
        STAFF_LINK_KEY_PREVIOUS: OLD_KEY,
        STAFF_LINK_KEY_PREVIOUS_UNTIL: 'tomorrow',
      },
      'STAFF_LINK_KEY_PREVIOUS_UNTIL must be an instant with its offset',
    ],
  ])('%j', (env, message) => {
    expect(problems(env).join('\n')).toContain(message);
  });
});
