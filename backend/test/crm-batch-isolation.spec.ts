import type { CiviCrmVersion } from '@checkin/civicrm-fake';
import { OwnerAccessService } from '../src/app/auth/owner-access.service';
import { CiviCrmHttpClient } from '../src/app/crm/civicrm-http.client';
import type { CrmConnection } from '../src/app/config/app-config';
import { CrmError } from '../src/app/crm/crm-errors';
import { createDemoModel, DEMO_PERSON_ID } from '../src/app/crm/in-memory/demo-data';
import { runWithRequestId } from '../src/app/logging/request-context';
import { ownerQuery, startTestApp, TEST_API_KEY, type TestApp, DEMO_LINK } from './support/test-app';
import { sharedTestApp } from './support/shared-app';

/**
 * One request's bad input fails that request alone (docs/decisions.md, "One request's CRM
 * batch"). CiviCRM fails a whole APIv4 batch when PHP's json_decode refuses one of its calls (a
 * lone UTF-16 surrogate): 6.14 answers its error page, 5.81 `200 []`, as the emulator does.
 */
const OWNERS = 8;
const LONE_SURROGATE = '\ud800';

describe.each<CiviCrmVersion>(['6.14', '5.81'])(
  'CiviCRM %s: a poisoned call never shares a batch',
  (version) => {
    const test = sharedTestApp(
      {
        emulator: { model: createDemoModel(), civicrmVersion: version },
        env: { RATE_LIMIT_CHECKSUM_FAILURES: '3', RATE_LIMIT_READS_PER_MINUTE: '1000' },
      },
      { resetEmulator: false },
    );

    beforeEach(() => {
      test.emulator.reset();
      test.app.get(OwnerAccessService).clear();
    });

    /** The raw JSON body a client can send: JSON.stringify would keep the escape as text. */
    function poisonedSubmit(app: TestApp = test): Promise<Response> {
      return fetch(`${app.url}/api/submit`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: app.url },
        body: `{"cid":"${DEMO_PERSON_ID}","cs":"\\ud800","contactId":"${DEMO_PERSON_ID}","submissionId":"x","values":{}}`,
      });
    }

    it('owners, readiness and the poisoned request each get their own answer', async () => {
      const answers = await Promise.all([
        poisonedSubmit(),
        ...Array.from({ length: OWNERS }, () => test.get(`/api/data?${ownerQuery(DEMO_LINK)}`)),
        test.get('/api/health/ready'),
        poisonedSubmit(),
      ]);
      const statuses = answers.map((answer) => answer.status);
      expect(statuses).toEqual([401, ...Array<number>(OWNERS).fill(200), 200, 401]);
      // Nothing CiviCRM could not read was sent.
      for (const call of test.emulator.calls) expect(JSON.stringify(call.params)).not.toMatch(/\\ud800/i);
    });

    it('counts a checksum of the wrong shape against the address, as a wrong one', async () => {
      const own = await startTestApp({
        emulator: { model: createDemoModel(), civicrmVersion: version },
        env: { RATE_LIMIT_CHECKSUM_FAILURES: '3' },
      });
      try {
        const statuses: number[] = [];
        for (let attempt = 0; attempt < 4; attempt += 1) statuses.push((await poisonedSubmit(own)).status);
        expect(statuses).toEqual([401, 401, 401, 429]);
        expect(own.emulator.calls).toEqual([]);
      } finally {
        await own.close();
      }
    });
  },
);

describe('the CRM client: batches scoped to one request', () => {
  let test: TestApp;
  let client: CiviCrmHttpClient;

  beforeAll(async () => {
    test = await startTestApp({ emulator: { model: createDemoModel(), civicrmVersion: '5.81' } });
    client = new CiviCrmHttpClient({
      baseUrl: test.emulator.baseUrl,
      apiKey: TEST_API_KEY,
      urlStyle: 'standard',
      timeoutMs: 2_000,
    } as CrmConnection);
  });

  afterAll(async () => {
    await client.onApplicationShutdown();
    await test.close();
  });

  const read = (name: string) =>
    client.api4('Contact', 'get', { select: ['id'], where: [['display_name', '=', name]] });

  it('refuses a call CiviCRM could not read alone, before it is sent; the reads of other requests answer', async () => {
    test.emulator.clearCalls();
    const [poisoned, first, second] = await Promise.allSettled([
      runWithRequestId('attacker', () => read(`x${LONE_SURROGATE}`)),
      runWithRequestId('owner-1', () => read('A')),
      runWithRequestId('owner-2', () => Promise.all([read('B'), read('C')])),
    ]);
    expect(poisoned.status).toBe('rejected');
    expect((poisoned as PromiseRejectedResult).reason).toBeInstanceOf(CrmError);
    expect([first.status, second.status]).toEqual(['fulfilled', 'fulfilled']);
    // owner-1's read alone, owner-2's two as one batch: never one batch for both.
    expect(test.emulator.calls.map((call) => call.batchKey ?? 'alone')).toEqual([
      'alone',
      '0:Contact.get',
      '1:Contact.get',
    ]);
  });
});
