import {
  ERROR_CODES,
  type ErrorBody,
  type FormDataPayload,
  isErrorBody,
  type ReportPayload,
} from '@checkin/contract';
import fc from 'fast-check';
import { DEMO_ORG_ID, DEMO_ORG_NAME } from '../../src/app/crm/in-memory/demo-data';
import {
  startTestApp,
  TEST_API_KEY,
  TEST_STAFF_KEY,
  TEST_ADMIN_KEY,
  type TestApp,
} from '../support/test-app';
import {
  healthRequest,
  ownerReadRequest,
  ownerReadWithValidChecksum,
  previewLinkRequest,
  staffReportRequest,
  strayRequest,
  submitRequestWithBadLink,
  submitWithInvalidValues,
  uploadRequest,
} from './support/malformed-requests';
import {
  DEMO_LINK,
  type RouteRequest,
  send,
  submitRequest,
  type TimedResponse,
  UNLIMITED_RATE_ENV,
} from './support/route-requests';

/**
 * Generated malformed requests across every route (fast-check): none may answer a 5xx other
 * than the CRM's documented 502/504 (and a health route's 503), every refusal has docs/decisions.md, "Error bodies"'s
 * body without internals, nothing is written to the CRM, no promise is left rejected, and
 * Object.prototype stays clean.
 */

const MIN_REQUESTS = 5_000;
const PROPERTY_TIMEOUT_MS = 180_000;
/** CRM errors the service documents: unreachable or failing 502, timeout 504. */
const CRM_ERROR_STATUSES = new Set([502, 504]);
const STACK_TRACE = /\bat \S+ \(?[^)\s]*\.(?:ts|js):\d+/;

describe('malformed requests', () => {
  let service: TestApp;
  let sent = 0;
  const unhandledRejections: unknown[] = [];
  const recordRejection = (reason: unknown) => unhandledRejections.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', recordRejection);
    service = await startTestApp({ env: { ...UNLIMITED_RATE_ENV } });
  });

  afterAll(async () => {
    await service.close();
    process.off('unhandledRejection', recordRejection);
  });

  afterEach(() => {
    expect(service.emulator.writes()).toEqual([]);
    expect(unhandledRejections).toEqual([]);
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.prototype).not.toHaveProperty('isAdmin');
  });

  async function sendCounted(request: RouteRequest): Promise<TimedResponse> {
    sent += 1;
    return send(service.url, request);
  }

  /** The body of docs/decisions.md, "Error bodies", with nothing of a stack trace or a secret in it. */
  function expectSafeAnswer(request: RouteRequest, response: TimedResponse): void {
    const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
    expect(text).not.toMatch(STACK_TRACE);
    for (const secret of [TEST_API_KEY, TEST_STAFF_KEY, TEST_ADMIN_KEY]) expect(text).not.toContain(secret);

    const healthReport = request.path.startsWith('/api/health') && response.status === 503;
    if (response.status >= 500) {
      expect({
        path: request.path,
        status: response.status,
        allowed: healthReport || CRM_ERROR_STATUSES.has(response.status),
      }).toEqual({
        path: request.path,
        status: response.status,
        allowed: true,
      });
    }
    if (
      response.status >= 400 &&
      !healthReport &&
      request.method !== 'HEAD' &&
      // As sent: fetch resolves dot segments (`/api/%2e%2e/x` reaches the service as `/x`, a page).
      new URL(request.path, 'http://service.invalid').pathname.startsWith('/api')
    ) {
      expect(isErrorBody(response.body)).toBe(true);
      const body = response.body as ErrorBody;
      expect(body.statusCode).toBe(response.status);
      expect(ERROR_CODES).toContain(body.code);
    }
  }

  /** Runs the property and answers how often each status came back. */
  async function fuzz(
    arbitrary: fc.Arbitrary<RouteRequest>,
    numRuns: number,
    check: (response: TimedResponse, request: RouteRequest) => void = () => undefined,
  ): Promise<Map<number, number>> {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(arbitrary, async (request) => {
        const response = await sendCounted(request);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expectSafeAnswer(request, response);
        check(response, request);
      }),
      { numRuns },
    );
    return statuses;
  }

  const statusesOf = (counts: Map<number, number>) => [...counts.keys()].sort();

  it(
    'refuses every link with a checksum the CRM never issued, on GET /api/data and /api/report, with 401',
    async () => {
      await fuzz(ownerReadRequest, 1_000, (response) => expect(response.status).toBe(401));
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers a valid checksum with hostile contactId and orgId only with the demo organization or a refusal',
    async () => {
      const statuses = await fuzz(ownerReadWithValidChecksum, 400, (response, request) => {
        expect([200, 400, 401, 403]).toContain(response.status);
        if (response.status !== 200) return;
        if (request.path.startsWith('/api/data')) {
          expect((response.body as FormDataPayload).organization.id).toBe(DEMO_ORG_ID);
        } else {
          expect((response.body as ReportPayload).orgName).toBe(DEMO_ORG_NAME);
        }
      });
      expect(statusesOf(statuses)).toEqual(expect.arrayContaining([200, 403]));
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'refuses POST /api/submit bodies of every wrong shape, type and content type',
    async () => {
      const statuses = await fuzz(submitRequestWithBadLink, 1_000, (response) =>
        expect([400, 401, 413, 415]).toContain(response.status),
      );
      expect(statusesOf(statuses)).toEqual(expect.arrayContaining([400, 401]));
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'refuses multipart garbage and bad checksums on POST /api/upload',
    async () => {
      const statuses = await fuzz(uploadRequest, 800, (response) =>
        expect([400, 401, 413, 415]).toContain(response.status),
      );
      expect(statusesOf(statuses)).toEqual(expect.arrayContaining([400, 401]));
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers GET /api/staff/report with any key and orgId without a server error',
    async () => {
      const statuses = await fuzz(staffReportRequest, 600);
      expect(statusesOf(statuses)).toEqual(expect.arrayContaining([400, 401, 404]));
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers POST /api/preview-link with any key and body without a server error',
    async () => {
      const statuses = await fuzz(previewLinkRequest, 500);
      expect(statusesOf(statuses)).toEqual(expect.arrayContaining([400, 401]));
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers the health routes with any query without a server error',
    async () => {
      const statuses = await fuzz(healthRequest, 300);
      expect(statusesOf(statuses)).toEqual(expect.arrayContaining([200, 400]));
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers any method on any path, with any body, without a server error',
    async () => {
      const statuses = await fuzz(strayRequest, 600);
      expect(statusesOf(statuses)).toEqual(expect.arrayContaining([404]));
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'refuses invalid values from a valid link before writing anything',
    async () => {
      await fc.assert(
        fc.asyncProperty(submitWithInvalidValues, async ({ submissionId, values }) => {
          const request = submitRequest(DEMO_LINK, { submissionId, values });
          const response = await sendCounted(request);
          expectSafeAnswer(request, response);
          expect(response.status).toBe(400);
        }),
        { numRuns: 300 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(`sent at least ${MIN_REQUESTS} generated requests, and the service still answers`, async () => {
    expect(sent).toBeGreaterThanOrEqual(MIN_REQUESTS);
    expect((await send(service.url, { method: 'GET', path: '/api/health/live', headers: {} })).status).toBe(
      200,
    );
  });
});
