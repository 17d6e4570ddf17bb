import { connect } from 'node:net';
import { resolve } from 'node:path';
import {
  createDemoModel,
  DEMO_CHECKSUM,
  DEMO_ORG_ID,
  DEMO_PERSON_ID,
} from '../src/app/crm/in-memory/demo-data';
import { inlineScriptSources } from '../src/app/pages/static-site';
import {
  ownerQuery,
  startTestApp,
  TEST_ADMIN_KEY,
  TEST_API_KEY,
  TEST_STAFF_KEY,
  type TestApp,
} from './support/test-app';
import { expectRefusedBeforeCrm, sharedTestApp } from './support/shared-app';

const demoLink = ownerQuery({
  contactId: DEMO_PERSON_ID,
  orgId: DEMO_ORG_ID,
  cid: DEMO_PERSON_ID,
  cs: DEMO_CHECKSUM,
});
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The built page's inline scripts are allowed by their hashes (tools/build/precompress.mjs). */
const BUILT_PAGE_SCRIPTS = inlineScriptSources(resolve('dist/frontend/browser'))
  .map((source) => ` ${source}`)
  .join('');
const EXPECTED_CSP =
  `default-src 'self';script-src 'self'${BUILT_PAGE_SCRIPTS};script-src-attr 'none';style-src 'self' 'unsafe-inline';` +
  "img-src 'self' data:;font-src 'self';connect-src 'self';object-src 'none';base-uri 'self';" +
  "form-action 'self';frame-ancestors 'none'";

interface LogLine {
  level: string;
  context?: string;
  requestId?: string;
  message: unknown;
}

function parsedLogs(test: TestApp): LogLine[] {
  return test.logs.flatMap((chunk) =>
    chunk
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine),
  );
}

describe('production hardening (live mode against the CRM emulator)', () => {
  const test = sharedTestApp({ emulator: { model: createDemoModel() } });

  describe('security headers', () => {
    it("sends a content security policy without inline scripts but the built page's own, and the usual headers", async () => {
      const response = await test.get('/api/health/live');
      expect(response.headers.get('content-security-policy')).toBe(EXPECTED_CSP);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      expect(response.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
      expect(response.headers.get('permissions-policy')).toContain('camera=()');
      expect(response.headers.get('x-powered-by')).toBeNull();
    });

    it('forbids storing API answers, which hold personal data and checksums', async () => {
      const response = await test.get(`/api/report?${demoLink}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      // Nothing may revalidate a no-store answer: no validator is computed for one.
      expect(response.headers.get('etag')).toBeNull();
    });

    it('upgrades insecure requests only when the service is published over HTTPS', async () => {
      const https = await startTestApp({
        emulator: { model: createDemoModel() },
        env: { PUBLIC_BASE_URL: 'https://checkin.example.org' },
      });
      try {
        const response = await https.get('/api/health/live');
        expect(response.headers.get('content-security-policy')).toBe(
          `${EXPECTED_CSP};upgrade-insecure-requests`,
        );
      } finally {
        await https.close();
      }
    });
  });

  describe('security headers on answers no route gives', () => {
    function expectSecurityHeaders(headers: Headers): void {
      expect({
        csp: headers.get('content-security-policy'),
        frame: headers.get('x-frame-options'),
        sniff: headers.get('x-content-type-options'),
        referrer: headers.get('referrer-policy'),
        hsts: headers.get('strict-transport-security'),
        cache: headers.get('cache-control'),
      }).toEqual({
        csp: EXPECTED_CSP,
        frame: 'DENY',
        sniff: 'nosniff',
        referrer: 'no-referrer',
        hsts: expect.stringMatching(/^max-age=\d+/),
        cache: 'no-store',
      });
    }

    /** Writes `raw` on a fresh connection and reads the answer's head until the service closes it. */
    function rawHead(raw: string): Promise<Headers & { status: number }> {
      const { hostname, port } = new URL(test.url);
      return new Promise((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => socket.write(raw));
        let answer = '';
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
        socket.on('error', reject);
        socket.on('end', () => {
          const [statusLine = '', ...lines] = (answer.split('\r\n\r\n')[0] ?? '').split('\r\n');
          const headers = new Headers(
            lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
          );
          resolve(Object.assign(headers, { status: Number(statusLine.split(' ')[1]) }));
        });
      });
    }

    it.each([
      ['a body that is not JSON', 400, { 'Content-Type': 'application/json' }, '{"cid": 102,'],
      ['a body over 1 MB', 413, { 'Content-Type': 'application/json' }, `"${'x'.repeat(1_100_000)}"`],
      [
        'an unknown Content-Encoding',
        415,
        { 'Content-Type': 'application/json', 'Content-Encoding': 'compress' },
        '{}',
      ],
    ])(
      'sends them, and no-store, with the body parser’s refusal of %s',
      async (_case, status, headers, body) => {
        for (const path of ['/api/submit', '/']) {
          const response = await fetch(`${test.url}${path}`, { method: 'POST', headers, body });
          expect(response.status).toBe(status);
          expectSecurityHeaders(response.headers);
        }
      },
    );

    it('sends them with the answers Node gives itself: 431 for huge headers, 400 for a malformed request', async () => {
      const tooLarge = await rawHead(
        `GET /api/health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(tooLarge.status).toBe(431);
      expectSecurityHeaders(tooLarge);

      const malformed = await rawHead('NOT A REQUEST\r\n\r\n');
      expect(malformed.status).toBe(400);
      expectSecurityHeaders(malformed);
    });
  });

  describe('CORS', () => {
    it('gives a foreign origin no access to answers', async () => {
      const response = await test.get(`/api/report?${demoLink}`, { Origin: 'https://evil.example' });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    });

    it('answers no preflight, so a foreign page cannot send JSON or keys', async () => {
      const response = await fetch(`${test.url}/api/submit`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://evil.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type,x-admin-key',
        },
      });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('access-control-allow-methods')).toBeNull();
      expect(response.headers.get('access-control-allow-headers')).toBeNull();
      expect(test.emulator.writes()).toEqual([]);
    });

    it('opens only to the origins listed in CORS_ORIGINS', async () => {
      const open = await startTestApp({
        emulator: { model: createDemoModel() },
        env: { CORS_ORIGINS: 'https://coop.example.org' },
      });
      try {
        const listed = await open.get('/api/health/live', { Origin: 'https://coop.example.org' });
        expect(listed.headers.get('access-control-allow-origin')).toBe('https://coop.example.org');
        const other = await open.get('/api/health/live', { Origin: 'https://evil.example' });
        expect(other.headers.get('access-control-allow-origin')).toBeNull();
      } finally {
        await open.close();
      }
    });
  });

  describe('request bodies', () => {
    it('refuses a JSON body over 1 MB with 413 and the error body, without calling the CRM', async () => {
      const body = {
        cid: DEMO_PERSON_ID,
        cs: DEMO_CHECKSUM,
        values: { Organizing_notes: 'x'.repeat(1_048_577) },
      };
      const response = await test.post('/api/submit', body);
      await expectRefusedBeforeCrm(test, response, {
        status: 413,
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The request body is too large.',
      });
    });

    it('refuses a body that is not JSON with 400 and the error body', async () => {
      const response = await test.post('/api/submit', '{"cid": 102, "cs": ');
      await expectRefusedBeforeCrm(test, response, {
        status: 400,
        code: 'BAD_REQUEST',
        message: 'The request body is not valid JSON.',
      });
    });

    it('answers an unknown API route with a JSON 404, not the page', async () => {
      const response = await test.get('/api/nothing-here');
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    });
  });

  describe('request ids and logs', () => {
    // Nest's static loggers write through the most recently created application: start a fresh one.
    const logged = sharedTestApp({ emulator: { model: createDemoModel() } }, { resetEmulator: false });

    /** The request's line is written when the answer is done, which can be just after the client has it. */
    async function linesOf(requestId: string): Promise<LogLine[]> {
      const lines = () => parsedLogs(logged).filter((line) => line.requestId === requestId);
      await waitFor(() => lines().some((line) => line.context === 'HTTP'));
      return lines();
    }

    it('makes a request id and echoes it', async () => {
      const response = await test.get('/api/health/live');
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    });

    it("keeps a proxy's sane request id", async () => {
      const response = await test.get('/api/health/live', { 'X-Request-Id': 'lb-7f3a.2026:11' });
      expect(response.headers.get('x-request-id')).toBe('lb-7f3a.2026:11');
    });

    it.each(['has spaces in it', 'x'.repeat(129), '"quoted"', 'a;b'])(
      'replaces an incoming request id that is not a short token (%s)',
      async (incoming) => {
        const response = await test.get('/api/health/live', { 'X-Request-Id': incoming });
        expect(response.headers.get('x-request-id')).toMatch(UUID);
      },
    );

    it('writes one JSON line per request: method, path without the query, status, duration, request id', async () => {
      const response = await logged.get(`/api/report?${demoLink}`, { 'X-Request-Id': 'report-check-1' });
      expect(response.status).toBe(200);
      const lines = (await linesOf('report-check-1')).filter((line) => line.context === 'HTTP');
      expect(lines).toEqual([
        {
          level: 'log',
          pid: process.pid,
          timestamp: expect.any(Number),
          context: 'HTTP',
          requestId: 'report-check-1',
          message: { method: 'GET', path: '/api/report', status: 200, durationMs: expect.any(Number) },
        },
      ]);
    });

    it('cuts a long path in its log line, keeping the start and the full length', async () => {
      const longPath = `/api/${'x'.repeat(15_316)}`;
      expect(longPath.length).toBe(15_321);
      await logged.get(longPath, { 'X-Request-Id': 'long-path-1' });
      const lines = await linesOf('long-path-1');
      const http = lines.find((line) => line.context === 'HTTP');
      expect((http?.message as { path: string }).path).toBe(`${longPath.slice(0, 200)}…(15321 chars)`);
      // Whatever the request's address, what it writes to the log stays small.
      const written = logged.logs.filter((chunk) => chunk.includes('"long-path-1"')).join('');
      expect(written.length).toBeLessThan(2_000);
    });

    it('tags every line written while a request is handled with its id', async () => {
      logged.emulator.injectFault({ kind: 'http500' });
      await logged.get('/api/health/ready', { 'X-Request-Id': 'ready-check-1' });
      logged.emulator.clearFaults();
      const contexts = (await linesOf('ready-check-1')).map((line) => line.context);
      expect(contexts).toEqual(expect.arrayContaining(['CiviCRM', 'Health', 'HTTP']));
    });

    it('logs no checksum, key or body, whatever the request carried', async () => {
      await logged.get(`/api/report?${demoLink}`);
      await logged.get(`/api/staff/report?orgId=${DEMO_ORG_ID}`, { 'X-Staff-Key': TEST_STAFF_KEY });
      await logged.post(
        '/api/preview-link',
        { contactId: DEMO_PERSON_ID },
        { 'X-Admin-Key': TEST_ADMIN_KEY },
      );
      await logged.post(
        '/api/submit',
        { cid: DEMO_PERSON_ID, cs: 'a-guessed-checksum', values: {} },
        {
          'X-Request-Id': 'last-of-the-secrets-check',
        },
      );
      await linesOf('last-of-the-secrets-check');
      const everything = logged.logs.join('');
      for (const secret of [
        TEST_API_KEY,
        TEST_STAFF_KEY,
        TEST_ADMIN_KEY,
        'a-guessed-checksum',
        `cs=${DEMO_CHECKSUM}`,
      ]) {
        expect(everything).not.toContain(secret);
      }
    });
  });

  describe('read rate limit (docs/decisions.md, "Limits")', () => {
    it('counts every read route of one address together and answers 429 with Retry-After', async () => {
      const limited = await startTestApp({
        emulator: { model: createDemoModel() },
        env: { RATE_LIMIT_READS_PER_MINUTE: '3' },
      });
      try {
        expect((await limited.get(`/api/data?${demoLink}`)).status).toBe(200);
        expect((await limited.get(`/api/report?${demoLink}`)).status).toBe(200);
        expect((await limited.get('/api/health', { 'X-Admin-Key': TEST_ADMIN_KEY })).status).toBe(200);
        limited.emulator.clearCalls();

        const refused = await limited.get(`/api/report?${demoLink}`);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
        expect(await refused.json()).toEqual({
          statusCode: 429,
          code: 'RATE_LIMITED',
          message: 'Too many requests. Please wait a moment and try again.',
        });
        expect(limited.emulator.calls).toEqual([]);
      } finally {
        await limited.close();
      }
    });
  });
});

/** Polls a condition every 50 ms for up to 15 s. */
async function waitFor(condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met within 15 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
