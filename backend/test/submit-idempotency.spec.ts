import type { SubmitResponse } from '@checkin/contract';
import { randomUUID } from 'node:crypto';
import { ACTIVITY_TYPE_NAME, SUBMISSION_ID_FIELD } from '../src/app/crm/crm-names';
import { CiviCrmEmulator } from '@checkin/civicrm-fake/emulator';
import {
  createDemoModel,
  DEMO_CHECKSUM,
  DEMO_ORG_ID,
  DEMO_PERSON_ID,
} from '../src/app/crm/in-memory/demo-data';
import { haveRedis, type RedisServer, startRedis } from './support/redis-server';
import { bootService, type RunningService, TEST_API_KEY } from './support/test-app';

/**
 * One check-in per submissionId whatever happens between the attempts (docs/decisions.md,
 * "Idempotent submit"): a create that answers after the timeout, and two instances receiving the
 * same submission at once, with and without Redis.
 */
const CRM_TIMEOUT_MS = 1_000;

function body(submissionId: string) {
  return {
    cid: String(DEMO_PERSON_ID),
    cs: DEMO_CHECKSUM,
    contactId: DEMO_PERSON_ID,
    orgId: DEMO_ORG_ID,
    submissionId,
    values: { Steering_committee_size: 11 },
  };
}

function activitiesOf(emulator: CiviCrmEmulator, submissionId: string): number {
  return emulator.model.api4('Activity', 'get', {
    select: ['id'],
    where: [
      [SUBMISSION_ID_FIELD, '=', submissionId],
      ['activity_type_id:name', '=', ACTIVITY_TYPE_NAME],
    ],
  }).length;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a submission is recorded once', () => {
  let emulator: CiviCrmEmulator;
  const services: RunningService[] = [];

  async function service(env: Record<string, string> = {}): Promise<RunningService> {
    const started = await bootService({
      CRM_BASE_URL: emulator.baseUrl,
      CRM_API_KEY: TEST_API_KEY,
      CRM_TIMEOUT_MS: String(CRM_TIMEOUT_MS),
      ...env,
    });
    services.push(started);
    return started;
  }

  beforeEach(async () => {
    emulator = await CiviCrmEmulator.start({ apiKey: TEST_API_KEY, model: createDemoModel() });
  });

  afterEach(async () => {
    await Promise.all(services.splice(0).map((running) => running.close()));
    await emulator.stop();
  });

  it('keeps one check-in when creates answer after the timeout and the browser retries', async () => {
    const app = await service();
    const submissionId = randomUUID();
    // Each create lands in the CRM half a timeout after the service gave up on it.
    emulator.injectFault({
      kind: 'slow',
      entity: 'Activity',
      action: 'create',
      delayMs: CRM_TIMEOUT_MS * 1.5,
      times: 2,
    });

    const statuses: number[] = [];
    let answer: SubmitResponse | undefined;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await app.post('/api/submit', body(submissionId));
      statuses.push(response.status);
      if (response.status === 201) answer = (await response.json()) as SubmitResponse;
      else await response.arrayBuffer();
    }
    expect(statuses.slice(0, 2)).toEqual([504, 504]);
    expect(statuses[2]).toBe(201);
    // The late creates have landed, and the service has looked again (two timeouts after each).
    await sleep(CRM_TIMEOUT_MS * 3);
    expect(activitiesOf(emulator, submissionId)).toBe(1);
    const [kept] = emulator.model.api4('Activity', 'get', {
      select: ['id'],
      where: [[SUBMISSION_ID_FIELD, '=', submissionId]],
    });
    expect(kept?.['id']).toBe(answer?.activityId);
  });

  /** The same submission sent to each instance at once, with each one's status and answer. */
  function submitToBoth(instances: RunningService[], submissionId: string) {
    return Promise.all(
      instances.map(async (app) => {
        const response = await app.post('/api/submit', body(submissionId));
        return { status: response.status, body: (await response.json()) as SubmitResponse };
      }),
    );
  }

  it('keeps one check-in when two instances without Redis receive the same submission at once', async () => {
    const [first, second] = [await service(), await service()];
    const submissionId = randomUUID();
    emulator.setLatency(50);

    const answers = await submitToBoth([first, second], submissionId);

    expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
    expect(answers[0]?.body.activityId).toBe(answers[1]?.body.activityId);
    expect(activitiesOf(emulator, submissionId)).toBe(1);
  });

  const withRedis = haveRedis ? describe : describe.skip;
  withRedis('with Redis shared by the instances', () => {
    let redis: RedisServer;

    beforeAll(async () => {
      redis = await startRedis();
    });

    afterAll(async () => {
      await redis.stop();
    });

    it('creates once: the second instance waits for the first and finds its check-in', async () => {
      const env = { THROTTLE_REDIS_URL: redis.url };
      const [first, second] = [await service(env), await service(env)];
      const submissionId = randomUUID();
      emulator.setLatency(50);

      const answers = await submitToBoth([first, second], submissionId);

      expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
      expect(answers[0]?.body).toEqual(answers[1]?.body);
      expect(emulator.callsTo('Activity', 'create')).toHaveLength(1);
      expect(emulator.callsTo('Activity', 'delete')).toHaveLength(0);
      expect(activitiesOf(emulator, submissionId)).toBe(1);
    });
  });
});
