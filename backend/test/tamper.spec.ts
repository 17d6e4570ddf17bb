import type { ErrorCode } from '@checkin/contract';
import { randomUUID } from 'node:crypto';
import { OwnerAccessService } from '../src/app/auth/owner-access.service';
import { ACTIVITY_STAGE_FIELD, CONTACT_CUSTOM_GROUP } from '../src/app/crm/crm-names';
import {
  createDemoModel,
  DEFAULT_ORG_ID,
  DEMO_CHECKSUM,
  DEMO_ORG_ID,
  DEMO_PERSON_ID,
  INACTIVE_PERSON_CHECKSUM,
  INACTIVE_PERSON_ID,
  OTHER_ORG_ID,
  OTHER_PERSON_CHECKSUM,
  OTHER_PERSON_ID,
} from '../src/app/crm/in-memory/demo-data';
import { ownerQuery, startTestApp, TEST_ADMIN_KEY, TEST_STAFF_KEY, type TestApp } from './support/test-app';
import { sharedTestApp } from './support/shared-app';

/**
 * Every route, attacked: no or wrong credentials, another organization, another contact,
 * oversized bodies, unknown or read-only fields, Stage smuggled into a submission, and
 * checksum guessing. Each attempt must be refused with its documented status and error body,
 * and the CRM emulator must record no write at all.
 */

type Link = Record<string, string | number>;

const DEMO_LINK: Link = {
  contactId: DEMO_PERSON_ID,
  orgId: DEMO_ORG_ID,
  cid: DEMO_PERSON_ID,
  cs: DEMO_CHECKSUM,
};
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const MB = 1024 * 1024;

interface Refusal {
  status: number;
  code: ErrorCode;
}

const CHECKSUM_INVALID: Refusal = { status: 401, code: 'CHECKSUM_INVALID' };
const CONTACT_MISMATCH: Refusal = { status: 403, code: 'CONTACT_MISMATCH' };
const ORG_NOT_ALLOWED: Refusal = { status: 403, code: 'ORG_NOT_ALLOWED' };

/** The link attacks every owner route must refuse, with the answer docs/decisions.md, "Personal links" to "Organization access" and "Error bodies" give. */
const LINK_ATTACKS: Array<[string, Link, Refusal]> = [
  ['no cid or cs', { contactId: DEMO_PERSON_ID, orgId: DEMO_ORG_ID }, CHECKSUM_INVALID],
  ['no checksum', { ...DEMO_LINK, cs: '' }, CHECKSUM_INVALID],
  [
    'a wrong checksum',
    { ...DEMO_LINK, cs: '0123456789abcdef0123456789abcdef_1767225600_inf' },
    CHECKSUM_INVALID,
  ],
  [
    'a checksum of a shape CiviCRM never issues',
    { ...DEMO_LINK, cs: 'deadbeef_1700000000_inf' },
    CHECKSUM_INVALID,
  ],
  ['a cid that is not an id', { ...DEMO_LINK, cid: '102 OR 1=1' }, CHECKSUM_INVALID],
  ["the demo checksum on another person's cid", { ...DEMO_LINK, cid: OTHER_PERSON_ID }, CHECKSUM_INVALID],
  ['another contact than cid', { ...DEMO_LINK, contactId: OTHER_PERSON_ID }, CONTACT_MISMATCH],
  ['another organization', { ...DEMO_LINK, orgId: OTHER_ORG_ID }, ORG_NOT_ALLOWED],
  ["the CRM's own domain organization", { ...DEMO_LINK, orgId: DEFAULT_ORG_ID }, ORG_NOT_ALLOWED],
  ['an orgId that is not an id', { ...DEMO_LINK, orgId: '101;DROP' }, ORG_NOT_ALLOWED],
  [
    "another person's valid link pointed at the demo organization",
    { contactId: OTHER_PERSON_ID, orgId: DEMO_ORG_ID, cid: OTHER_PERSON_ID, cs: OTHER_PERSON_CHECKSUM },
    ORG_NOT_ALLOWED,
  ],
  [
    'a link whose Primary Contact relationship has ended',
    { cid: INACTIVE_PERSON_ID, cs: INACTIVE_PERSON_CHECKSUM },
    ORG_NOT_ALLOWED,
  ],
];

describe('tampering with every route (live mode against the CRM emulator)', () => {
  const test = sharedTestApp(
    {
      emulator: { model: createDemoModel() },
      // Limits have their own tests (guessing below); here, refusals must not turn into 429s.
      env: {
        RATE_LIMIT_CHECKSUM_FAILURES: '100000',
        RATE_LIMIT_READS_PER_MINUTE: '100000',
        RATE_LIMIT_SUBMITS_PER_MINUTE: '100000',
        RATE_LIMIT_UPLOADS_PER_MINUTE: '100000',
        RATE_LIMIT_UPLOAD_REQUESTS_PER_MINUTE: '100000',
      },
    },
    { resetEmulator: false },
  );

  beforeEach(() => {
    test.emulator.reset();
    test.app.get(OwnerAccessService).clear();
  });

  afterEach(() => {
    expect(test.emulator.writes()).toEqual([]);
  });

  async function expectRefused(response: Response, refusal: Refusal): Promise<void> {
    const body = (await response.json()) as Record<string, unknown>;
    expect({ status: response.status, code: body['code'] }).toEqual(refusal);
    expect(body).toMatchObject({ statusCode: refusal.status, message: expect.any(String) });
    expect(JSON.stringify(body)).not.toMatch(/stack|civicrm|Api4|at \w+ \(/i);
  }

  function submit(link: Link, values: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
    return test.post('/api/submit', { ...link, submissionId: randomUUID(), values, ...extra });
  }

  function upload(
    link: Link,
    file: { bytes: Buffer; type: string; name: string } = {
      bytes: PNG,
      type: 'image/png',
      name: 'certificate.png',
    },
    fieldRef = 'Certificate_of_Incorporation',
  ) {
    const form = new FormData();
    for (const [name, value] of Object.entries(link)) form.set(name, String(value));
    form.set('fieldRef', fieldRef);
    form.set('file', new Blob([file.bytes], { type: file.type }), file.name);
    return fetch(`${test.url}/api/upload`, { method: 'POST', body: form });
  }

  const OWNER_ROUTES: Array<[string, (link: Link) => Promise<Response>]> = [
    ['GET /api/data', (link) => test.get(`/api/data?${ownerQuery(link)}`)],
    ['GET /api/report', (link) => test.get(`/api/report?${ownerQuery(link)}`)],
    ['POST /api/submit', (link) => submit(link, { Equity_share: 175 })],
    ['POST /api/upload', (link) => upload(link)],
  ];

  describe.each(OWNER_ROUTES)('%s', (route, send) => {
    it.each(LINK_ATTACKS)('refuses %s', async (attack, link, refusal) => {
      // An upload whose file comes with no cid and cs before it is refused unread (upload rules).
      const expected: Refusal =
        route === 'POST /api/upload' && attack === 'no cid or cs'
          ? { status: 400, code: 'BAD_REQUEST' }
          : refusal;
      await expectRefused(await send(link), expected);
    });

    it('asks the CRM nothing when the link has no checksum', async () => {
      await send({ cid: DEMO_PERSON_ID });
      expect(test.emulator.calls).toEqual([]);
    });

    it('sends nothing to the CRM after a failed checksum check: only the check and the reads travelling in its request', async () => {
      await send({ ...DEMO_LINK, cs: '0123456789abcdef0123456789abcdef_1767225600_inf' });
      const calls = test.emulator.calls;
      expect(calls.slice(0, 2).map((call) => `${call.entity}.${call.action}`)).toEqual([
        'Contact.validateChecksum',
        'Relationship.get',
      ]);
      // One request (docs/decisions.md, "Organization access"): reads only, nothing after it.
      expect(new Set(calls.map((call) => call.at)).size).toBe(1);
      expect(calls.slice(2).every((call) => call.action === 'get')).toBe(true);
    });
  });

  describe('POST /api/submit, beyond the link', () => {
    it.each([
      ['Stage by its form name', { Stage: 'open' }, ['Stage']],
      ['Stage by its CRM name', { [ACTIVITY_STAGE_FIELD]: 'open' }, [ACTIVITY_STAGE_FIELD]],
      ['the derived current stage', { current_stage: 'open' }, ['current_stage']],
      ['Stage next to a genuine answer', { Equity_share: 175, Stage: 'open' }, ['Stage']],
      [
        'a read-only identity field',
        { first_name: 'Mallory', email: 'm@evil.example' },
        ['first_name', 'email'],
      ],
      ['an unknown field', { Favourite_colour: 'red' }, ['Favourite_colour']],
      [
        'a CRM custom field by its CRM name',
        { [`${CONTACT_CUSTOM_GROUP}.Equity_share`]: 1 },
        [`${CONTACT_CUSTOM_GROUP}.Equity_share`],
      ],
    ])('refuses %s with 400 naming the fields, and writes nothing', async (_case, values, fields) => {
      const response = await submit(DEMO_LINK, values);
      const body = (await response.json()) as { code: string; fields?: string[] };
      expect(response.status).toBe(400);
      expect(body.code).toBe('UNKNOWN_FIELDS');
      expect(body.fields?.sort()).toEqual([...fields].sort());
    });

    it('refuses a prototype key smuggled into the values', async () => {
      const body = `{"cid":"${DEMO_PERSON_ID}","cs":"${DEMO_CHECKSUM}","submissionId":"${randomUUID()}","values":{"__proto__":{"Stage":"open"}}}`;
      const response = await test.post('/api/submit', body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'UNKNOWN_FIELDS', fields: ['__proto__'] });
    });

    it.each([
      ['Stage beside the values', { Stage: 'open' }],
      ['the CRM Stage field beside the values', { [ACTIVITY_STAGE_FIELD]: 'open' }],
      ['an activity type of its own', { activity_type_id: 1 }],
    ])('refuses %s with 400', async (_case, extra) => {
      const response = await submit(DEMO_LINK, { Equity_share: 175 }, extra);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ statusCode: 400, code: 'BAD_REQUEST' });
    });

    it('refuses a body over 1 MB with 413 before checking the link', async () => {
      const response = await submit(DEMO_LINK, { Organizing_notes: 'x'.repeat(MB + 1) });
      await expectRefused(response, { status: 413, code: 'PAYLOAD_TOO_LARGE' });
      expect(test.emulator.calls).toEqual([]);
    });
  });

  describe('POST /api/upload, beyond the link', () => {
    it('refuses a file over 5 MB with 413', async () => {
      const big = Buffer.concat([PNG, Buffer.alloc(5 * MB)]);
      await expectRefused(await upload(DEMO_LINK, { bytes: big, type: 'image/png', name: 'big.png' }), {
        status: 413,
        code: 'FILE_TOO_LARGE',
      });
    });

    it('refuses a field that takes no files with 400', async () => {
      await expectRefused(await upload(DEMO_LINK, undefined, 'Equity_share'), {
        status: 400,
        code: 'FIELD_NOT_ALLOWED',
      });
    });

    it('refuses a type not on the list with 415', async () => {
      const page = { bytes: Buffer.from('<script>alert(1)</script>'), type: 'text/html', name: 'page.html' };
      await expectRefused(await upload(DEMO_LINK, page), { status: 415, code: 'UNSUPPORTED_FILE_TYPE' });
    });

    it('refuses a file whose bytes are not the type it claims with 415', async () => {
      const disguised = {
        bytes: Buffer.from('<script>alert(1)</script>'),
        type: 'image/png',
        name: 'photo.png',
      };
      await expectRefused(await upload(DEMO_LINK, disguised), { status: 415, code: 'FILE_CONTENT_MISMATCH' });
    });
  });

  describe('GET /api/staff/report', () => {
    it.each<[string, string, Record<string, string>]>([
      ['no key', `orgId=${DEMO_ORG_ID}`, {}],
      ['a wrong key', `orgId=${DEMO_ORG_ID}`, { 'X-Staff-Key': `${TEST_STAFF_KEY}x` }],
      ['the admin key', `orgId=${DEMO_ORG_ID}`, { 'X-Staff-Key': TEST_ADMIN_KEY }],
      ['the key in the address instead of the header', `orgId=${DEMO_ORG_ID}&key=${TEST_STAFF_KEY}`, {}],
      ['an owner link instead of the key', ownerQuery(DEMO_LINK), {}],
    ])('refuses %s with 401, asking the CRM nothing', async (_case, query, headers) => {
      await expectRefused(await test.get(`/api/staff/report?${query}`, headers), {
        status: 401,
        code: 'STAFF_KEY_INVALID',
      });
      expect(test.emulator.calls).toEqual([]);
    });

    it.each(['', 'orgId=abc', 'orgId=-101', `orgId=${DEMO_ORG_ID}&orgId=${OTHER_ORG_ID}`])(
      'refuses a bad organization (%s) with 400',
      async (query) => {
        await expectRefused(await test.get(`/api/staff/report?${query}`, { 'X-Staff-Key': TEST_STAFF_KEY }), {
          status: 400,
          code: 'BAD_REQUEST',
        });
        expect(test.emulator.calls).toEqual([]);
      },
    );
  });

  describe('POST /api/preview-link', () => {
    it.each<[string, Record<string, string>]>([
      ['no key', {}],
      ['a wrong key', { 'X-Admin-Key': `${TEST_ADMIN_KEY}x` }],
      ['the staff key', { 'X-Admin-Key': TEST_STAFF_KEY }],
    ])('refuses %s with 401, asking the CRM nothing', async (_case, headers) => {
      const response = await test.post('/api/preview-link', { contactId: DEMO_PERSON_ID }, headers);
      await expectRefused(response, { status: 401, code: 'ADMIN_KEY_INVALID' });
      expect(test.emulator.calls).toEqual([]);
    });

    it('refuses an unknown field with 400', async () => {
      const response = await test.post(
        '/api/preview-link',
        { contactId: DEMO_PERSON_ID, ttlHours: 1, key: TEST_STAFF_KEY },
        { 'X-Admin-Key': TEST_ADMIN_KEY },
      );
      expect(response.status).toBe(400);
      expect(test.emulator.calls).toEqual([]);
    });

    it('refuses a body over 1 MB with 413', async () => {
      const response = await test.post(
        '/api/preview-link',
        { contactId: DEMO_PERSON_ID, note: 'x'.repeat(MB + 1) },
        { 'X-Admin-Key': TEST_ADMIN_KEY },
      );
      await expectRefused(response, { status: 413, code: 'PAYLOAD_TOO_LARGE' });
    });
  });
});

describe('tampering with the admin routes in production', () => {
  const test = sharedTestApp(
    {
      emulator: { model: createDemoModel() },
      env: { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://checkin.example.org' },
    },
    { resetEmulator: false },
  );

  afterEach(() => {
    expect(test.emulator.calls).toEqual([]);
    test.emulator.reset();
  });

  it.each<[string, Record<string, string>]>([
    ['no key', {}],
    ['a wrong key', { 'X-Admin-Key': 'x'.repeat(32) }],
    ['the staff key', { 'X-Admin-Key': TEST_STAFF_KEY }],
    ['the admin key in the wrong header', { 'X-Staff-Key': TEST_ADMIN_KEY }],
  ])('keeps the diagnostics closed to %s (401)', async (_case, headers) => {
    const response = await test.get(`/api/health?contactId=${DEMO_PERSON_ID}`, headers);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'ADMIN_KEY_INVALID' });
  });
});

describe('checksum guessing', () => {
  let test: TestApp;

  beforeAll(async () => {
    // The defaults of docs/decisions.md, "Limits": 10 failures per 10 minutes per client address.
    test = await startTestApp({ emulator: { model: createDemoModel() } });
  });

  afterAll(() => test.close());

  it('answers 429 with Retry-After after 10 failures, on every owner route, before any further CRM call', async () => {
    const guesses = [
      (attempt: number) => test.get(`/api/data?${ownerQuery({ ...DEMO_LINK, cs: `guess-${attempt}` })}`),
      (attempt: number) => test.get(`/api/report?${ownerQuery({ ...DEMO_LINK, cs: `guess-${attempt}` })}`),
      (attempt: number) =>
        test.post('/api/submit', {
          ...DEMO_LINK,
          cs: `guess-${attempt}`,
          submissionId: randomUUID(),
          values: {},
        }),
    ];
    for (let attempt = 0; attempt < 10; attempt++) {
      const response = await guesses[attempt % guesses.length]!(attempt);
      expect(response.status).toBe(401);
    }
    test.emulator.clearCalls();

    for (const [attempt, guess] of guesses.entries()) {
      const response = await guess(10 + attempt);
      expect(response.status).toBe(429);
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(500);
      expect(retryAfter).toBeLessThanOrEqual(600);
      expect(await response.json()).toEqual({
        statusCode: 429,
        code: 'RATE_LIMITED',
        message: 'Too many requests. Please wait a moment and try again.',
      });
    }
    // Even the right checksum waits: the address is locked out, so guessing cannot be confirmed.
    const right = await test.get(`/api/report?${ownerQuery(DEMO_LINK)}`);
    expect(right.status).toBe(429);
    expect(test.emulator.calls).toEqual([]);
    expect(test.emulator.writes()).toEqual([]);
  });
});
