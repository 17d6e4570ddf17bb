import { ERROR_CODES, type ErrorBody, type HealthReport, type StaffReportPayload } from '@checkin/contract';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OwnerAccessService } from '../../src/app/auth/owner-access.service';
import type { EmulatorFault, EmulatorFaultKind } from '@checkin/civicrm-fake/emulator';
import { CONTACT_CUSTOM_GROUP, SUBMISSION_ID_FIELD } from '../../src/app/crm/crm-names';
import { DEMO_ORG_ID } from '../../src/app/crm/in-memory/demo-data';
import { startTestApp, TEST_API_KEY, type TestApp } from '../support/test-app';
import {
  DEMO_LINK,
  routeRequest,
  ROUTE_NAMES,
  type RouteName,
  type RouteRequest,
  send,
  submitRequest,
  SUCCESS_STATUS,
  type TimedResponse,
  UNLIMITED_RATE_ENV,
} from './support/route-requests';

/**
 * The CRM misbehaving, as the emulator can make it: every route answers its documented error
 * within the CRM timeout plus one second, the process stays up, and the first request after the
 * CRM recovers succeeds.
 */

const CRM_TIMEOUT_MS = 500;
const ANSWER_WITHIN_MS = CRM_TIMEOUT_MS + 1_000;
/** Far past the timeout: the service must give up long before the emulator answers. */
const SLOW_ANSWER_MS = 5_000;

type GenericFault = Exclude<EmulatorFaultKind, 'v3error'>;

const GENERIC_FAULTS: readonly GenericFault[] = ['down', 'slow', 'http500', 'http401', 'malformed'];

/** How each fault reads in a test name. */
const FAULT_NAMES: Record<GenericFault, string> = {
  down: 'down',
  slow: 'slower than the timeout',
  http500: 'answering 500',
  http401: 'refusing the credentials',
  malformed: 'answering HTML instead of JSON',
};

const FAULT_CASES = GENERIC_FAULTS.map((kind) => ({ kind, name: FAULT_NAMES[kind] }));

/** What a route's CRM call fails with, as the health answer names it. */
const DEPENDENCY_FAILURE: Record<GenericFault, string> = {
  down: 'unreachable',
  slow: 'timeout',
  http500: 'failed',
  http401: 'unauthorized',
  malformed: 'malformed',
};

/**
 * CRM outages are 502 CRM_UNAVAILABLE, refused credentials 502 CRM_CREDENTIALS_REFUSED, timeouts
 * 504 CRM_TIMEOUT (docs/decisions.md, "CRM failures").
 */
function expectedError(fault: GenericFault): Pick<ErrorBody, 'statusCode' | 'code'> {
  if (fault === 'slow') return { statusCode: 504, code: 'CRM_TIMEOUT' };
  if (fault === 'http401') return { statusCode: 502, code: 'CRM_CREDENTIALS_REFUSED' };
  return { statusCode: 502, code: 'CRM_UNAVAILABLE' };
}

function faultOf(kind: GenericFault, only: Pick<EmulatorFault, 'entity' | 'action'> = {}): EmulatorFault {
  return kind === 'slow' ? { kind, delayMs: SLOW_ANSWER_MS, ...only } : { kind, ...only };
}

const OWNER_ROUTES: readonly RouteName[] = ['data', 'submit', 'upload', 'report'];

describe('CRM faults', () => {
  let service: TestApp;
  const unhandledRejections: unknown[] = [];
  const recordRejection = (reason: unknown) => unhandledRejections.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', recordRejection);
    service = await startTestApp({
      // A check the CRM could not answer counts against the checksum-failure limit (docs/decisions.md,
      // "Checksums"): high here, so the many outage cases below do not reach it; its own test has 3.
      env: {
        ...UNLIMITED_RATE_ENV,
        RATE_LIMIT_CHECKSUM_FAILURES: '1000',
        CRM_TIMEOUT_MS: String(CRM_TIMEOUT_MS),
      },
    });
  });

  afterAll(async () => {
    await service.close();
    process.off('unhandledRejection', recordRejection);
  });

  beforeEach(() => {
    service.emulator.reset();
  });

  afterEach(() => {
    expect(unhandledRejections).toEqual([]);
  });

  function request(route: RouteName, sent: RouteRequest = routeRequest(route)): Promise<TimedResponse> {
    return send(service.url, sent);
  }

  async function expectSuccess(route: RouteName, sent?: RouteRequest): Promise<TimedResponse> {
    const response = await request(route, sent);
    expect({ route, status: response.status }).toEqual({ route, status: SUCCESS_STATUS[route] });
    return response;
  }

  async function expectProcessUp(): Promise<void> {
    const live = await send(service.url, { method: 'GET', path: '/api/health/live', headers: {} });
    expect(live.status).toBe(200);
  }

  /** The error body of docs/decisions.md, "Error bodies", with nothing of the CRM's own answer in it. */
  function expectErrorBody(response: TimedResponse, expected: Pick<ErrorBody, 'statusCode' | 'code'>): void {
    expect(response.status).toBe(expected.statusCode);
    expect(response.body).toEqual({ ...expected, message: expect.any(String) });
    expect(ERROR_CODES).toContain(expected.code);
    expect(JSON.stringify(response.body)).not.toMatch(
      /Injected|maintenance|<html|error_message|CRM [A-Z]\w+\./,
    );
    expect(JSON.stringify(response.body)).not.toContain(TEST_API_KEY);
  }

  describe.each(ROUTE_NAMES.filter((route) => route !== 'ready'))('%s', (route) => {
    it.each(FAULT_CASES)(
      'answers its documented error when the CRM is $name, stays up, and works once the CRM recovers',
      async ({ kind }) => {
        await expectSuccess(route);
        service.emulator.injectFault(faultOf(kind));

        const failed = await request(route);
        expectErrorBody(failed, expectedError(kind));
        expect(failed.elapsedMs).toBeLessThan(ANSWER_WITHIN_MS);
        await expectProcessUp();

        service.emulator.clearFaults();
        await expectSuccess(route);
      },
    );
  });

  describe('ready', () => {
    it.each(FAULT_CASES)(
      'answers 503 naming the failure when the CRM is $name, and 200 once it recovers',
      async ({ kind }) => {
        await expectSuccess('ready');
        service.emulator.injectFault(faultOf(kind));

        const failed = await request('ready');
        expect(failed.status).toBe(503);
        const report = failed.body as HealthReport;
        expect(report.status).toBe('error');
        expect(report.error['crm']).toEqual({
          status: 'down',
          failure: DEPENDENCY_FAILURE[kind],
          message: expect.any(String),
        });
        expect(failed.elapsedMs).toBeLessThan(ANSWER_WITHIN_MS);
        await expectProcessUp();

        service.emulator.clearFaults();
        await expectSuccess('ready');
      },
    );
  });

  describe('a cold checksum while the CRM fails', () => {
    it.each(OWNER_ROUTES.flatMap((route) => FAULT_CASES.map((fault) => ({ route, ...fault }))))(
      '$route answers the CRM error, not 401, when the CRM is $name during the checksum check',
      async ({ route, kind }) => {
        service.app.get(OwnerAccessService).clear();
        service.emulator.injectFault(faultOf(kind));

        const failed = await request(route);
        expectErrorBody(failed, expectedError(kind));
        expect(failed.elapsedMs).toBeLessThan(ANSWER_WITHIN_MS);
        // Nothing is written before the checksum is known to be valid (docs/decisions.md, "Checksums").
        expect(service.emulator.writes()).toEqual([]);

        service.emulator.clearFaults();
        await expectSuccess(route);
      },
    );

    it('counts each check the CRM could not answer as a failed one, so a poisoned link is no free CRM request', async () => {
      const limited = await startTestApp({
        env: { ...UNLIMITED_RATE_ENV, RATE_LIMIT_CHECKSUM_FAILURES: '3' },
      });
      try {
        limited.emulator.injectFault(faultOf('http500', { entity: 'Contact', action: 'validateChecksum' }));
        const statuses: number[] = [];
        for (let attempt = 0; attempt < 5; attempt += 1) {
          statuses.push((await send(limited.url, routeRequest('data'))).status);
        }
        expect(statuses).toEqual([502, 502, 502, 429, 429]);
      } finally {
        await limited.close();
      }
    });
  });

  describe('the staff report when only the signed-URL lookup fails', () => {
    function fileUrls(payload: unknown): string[] {
      if (Array.isArray(payload)) return payload.flatMap(fileUrls);
      if (typeof payload !== 'object' || payload === null) return [];
      return Object.entries(payload).flatMap(([key, value]) =>
        key === 'url' && typeof value === 'string' ? [value] : fileUrls(value),
      );
    }

    it.each<EmulatorFault>([
      { kind: 'v3error', entity: 'Attachment' },
      { kind: 'http500', entity: 'Attachment' },
      { kind: 'down', entity: 'Attachment' },
      { kind: 'slow', entity: 'Attachment', delayMs: SLOW_ANSWER_MS },
    ])(
      'still answers 200, without signed URLs, when Attachment.get and File.get both fail ($kind)',
      async (fault) => {
        service.emulator.injectFault(fault);
        // 'v3error' is an APIv3 envelope: its APIv4 counterpart is an HTTP 500.
        const fileGet: EmulatorFault['kind'] = fault.kind === 'v3error' ? 'http500' : fault.kind;
        service.emulator.injectFault({ ...fault, kind: fileGet, entity: 'File', action: 'get' });

        const response = await expectSuccess('staffReport');
        const payload = response.body as StaffReportPayload;
        expect(payload.organization.id).toBe(DEMO_ORG_ID);
        expect(payload.fileUrlLookup).toBe('failed');
        expect(fileUrls(payload)).toEqual([]);
        expect(response.elapsedMs).toBeLessThan(ANSWER_WITHIN_MS);

        service.emulator.clearFaults();
        // CiviCRM refuses the v3 id list even when well: the signed URLs come from File.get.
        const recovered = await expectSuccess('staffReport');
        expect((recovered.body as StaffReportPayload).fileUrlLookup).toBe('file-get');
        expect(fileUrls(recovered.body).length).toBeGreaterThan(0);
      },
    );
  });

  describe('the check-in activity failing after the organization was updated', () => {
    const EQUITY_SHARE = 137.5;
    const EQUITY_SHARE_FIELD = `${CONTACT_CUSTOM_GROUP}.Equity_share`;
    const submitWith = (submissionId: string): RouteRequest =>
      submitRequest(DEMO_LINK, {
        submissionId,
        values: { Equity_share: EQUITY_SHARE, Steering_committee_size: 9 },
      });

    function checkInsRecordedAs(submissionId: string): unknown[] {
      return service.emulator.model.api4('Activity', 'get', {
        select: ['id'],
        where: [[SUBMISSION_ID_FIELD, '=', submissionId]],
      });
    }

    it('answers ACTIVITY_NOT_SAVED when the batch of the update and the create fails, and a retry records one check-in', async () => {
      await expectSuccess('data');
      service.emulator.injectFault({ kind: 'http500', entity: 'Activity', action: 'create' });
      const submissionId = randomUUID();

      const failed = await request('submit', submitWith(submissionId));
      expectErrorBody(failed, { statusCode: 502, code: 'ACTIVITY_NOT_SAVED' });
      // The organization's update travels with the create, after the submission lookup
      // (docs/decisions.md, "Idempotent submit"): the batch failed as a whole, both with it.
      const [update] = service.emulator.callsTo('Contact', 'update');
      const [create] = service.emulator.callsTo('Activity', 'create');
      expect(update?.status).toBe(500);
      expect(create?.status).toBe(500);
      expect(update!.at).toBeLessThanOrEqual(create!.at);
      expect(checkInsRecordedAs(submissionId)).toEqual([]);
      await expectProcessUp();

      service.emulator.clearFaults();
      await expectSuccess('submit', submitWith(submissionId));
      expect(checkInsRecordedAs(submissionId)).toHaveLength(1);
    });

    it('answers 504 ACTIVITY_NOT_SAVED when the create times out, and a retry finds the check-in the CRM made late', async () => {
      await expectSuccess('data');
      // Past the timeout and the second of slack the timeout may take (the client's timers are coarse).
      const lateBy = ANSWER_WITHIN_MS + 500;
      service.emulator.injectFault({
        kind: 'slow',
        entity: 'Activity',
        action: 'create',
        delayMs: lateBy,
        times: 1,
      });
      const submissionId = randomUUID();

      const failed = await request('submit', submitWith(submissionId));
      expectErrorBody(failed, { statusCode: 504, code: 'ACTIVITY_NOT_SAVED' });
      expect(failed.elapsedMs).toBeLessThan(ANSWER_WITHIN_MS);
      await waitFor(() => service.emulator.callsTo('Activity', 'create')[0]?.status === 200, lateBy + 1_000);

      const retried = await expectSuccess('submit', submitWith(submissionId));
      const created = checkInsRecordedAs(submissionId) as Array<{ id: number }>;
      expect(created).toHaveLength(1);
      expect(retried.body).toEqual({ activityId: created[0]?.id, submittedAt: expect.any(String) });
      expect(service.emulator.callsTo('Activity', 'create')).toHaveLength(1);
    });

    it('leaves the organization as it was when the batch holding the check-in failed', async () => {
      const equityShare = () =>
        service.emulator.model.api4('Contact', 'get', {
          select: [EQUITY_SHARE_FIELD],
          where: [['id', '=', DEMO_ORG_ID]],
        })[0]?.[EQUITY_SHARE_FIELD];
      const before = equityShare();
      expect(before).not.toBe(EQUITY_SHARE);
      service.emulator.injectFault({ kind: 'http500', entity: 'Activity', action: 'create' });

      expectErrorBody(await request('submit', submitWith(randomUUID())), {
        statusCode: 502,
        code: 'ACTIVITY_NOT_SAVED',
      });
      expect(equityShare()).toBe(before);
    });
  });
});

/**
 * Issue 14.5: a CRM that sends its headers and then one byte at a time, or an answer far larger
 * than any the service asks for. A plain HTTP server plays it (the emulator answers whole
 * bodies): CRM_TIMEOUT_MS bounds the whole call, headers and body, and an answer over
 * CRM_MAX_ANSWER_BYTES is refused with its connection dropped.
 */
describe('a CRM that trickles or floods its answers', () => {
  const TIMEOUT_MS = 1_000;
  const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
  const FLOOD_BYTES = 64 * 1024 * 1024;
  let mode: 'trickle' | 'flood' = 'trickle';
  let crm: Server;
  let service: TestApp;
  const timers = new Set<NodeJS.Timeout>();
  const flood = { written: 0, closedEarly: 0 };

  beforeAll(async () => {
    crm = createServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('{"values":[');
      if (mode === 'trickle') {
        const timer = setInterval(() => response.write(' '), 100);
        timers.add(timer);
        response.on('close', () => clearInterval(timer));
        return;
      }
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let written = 0;
      response.on('close', () => {
        if (written < FLOOD_BYTES) flood.closedEarly += 1;
      });
      const pump = (): void => {
        while (written < FLOOD_BYTES && !response.destroyed) {
          written += chunk.byteLength;
          flood.written += chunk.byteLength;
          if (!response.write(chunk)) {
            response.once('drain', pump);
            return;
          }
        }
        if (!response.destroyed) response.end(']}');
      };
      pump();
    });
    await new Promise<void>((resolve) => crm.listen(0, '127.0.0.1', resolve));
    const { port } = crm.address() as AddressInfo;
    service = await startTestApp({
      env: {
        ...UNLIMITED_RATE_ENV,
        CRM_BASE_URL: `http://127.0.0.1:${port}`,
        CRM_TIMEOUT_MS: String(TIMEOUT_MS),
        CRM_MAX_ANSWER_BYTES: String(MAX_ANSWER_BYTES),
      },
    });
  });

  afterAll(async () => {
    timers.forEach(clearInterval);
    await service.close();
    crm.closeAllConnections();
    await new Promise((resolve) => crm.close(resolve));
  });

  it('answers within the timeout when the CRM trickles its answer: 504, and readiness down', async () => {
    mode = 'trickle';
    const data = await send(service.url, routeRequest('data'));
    expect(data.status).toBe(504);
    expect(data.body).toMatchObject({ statusCode: 504, code: 'CRM_TIMEOUT' });
    expect(data.elapsedMs).toBeLessThan(TIMEOUT_MS + 1_000);

    const ready = await send(service.url, routeRequest('ready'));
    expect(ready.status).toBe(503);
    expect((ready.body as HealthReport).error?.['crm']).toMatchObject({ status: 'down', failure: 'timeout' });
    expect(ready.elapsedMs).toBeLessThan(TIMEOUT_MS + 1_000);
  });

  it('refuses an answer over CRM_MAX_ANSWER_BYTES with 502 and drops its connection', async () => {
    mode = 'flood';
    flood.written = 0;
    flood.closedEarly = 0;
    const data = await send(service.url, routeRequest('data'));
    expect(data.status).toBe(502);
    expect(data.body).toMatchObject({ statusCode: 502, code: 'CRM_UNAVAILABLE' });
    expect(data.elapsedMs).toBeLessThan(TIMEOUT_MS + 1_000);
    await waitFor(() => flood.closedEarly > 0, 2_000);
    expect(flood.written).toBeLessThan(FLOOD_BYTES);
  });
});

/** Polls `condition` (a state the emulator reaches on its own timer) until it holds. */
async function waitFor(condition: () => boolean, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
