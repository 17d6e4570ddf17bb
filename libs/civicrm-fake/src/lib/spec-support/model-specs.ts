import type { CiviCrmModel } from '../model/civicrm-model';
import { Api4Error } from '../model/types';
import { ORG_ID, PERSON_ID, SAMPLE_ACTIVITY_TYPE, createSampleModel } from './sample-site';

/** What the model's specs (model/civicrm-model-*.spec.ts) share. */

/** The call throws an APIv4 error with this status (and a message matching `message`). */
export function expectApi4Error(run: () => unknown, status = 500, message?: RegExp): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(Api4Error);
  expect((caught as Api4Error).status).toBe(status);
  if (message) expect((caught as Api4Error).message).toMatch(message);
}

/** The behaviours measured on real CiviCRM 6.14 and 5.81.1: a sample site and check-ins on it. */
export function realSiteHelpers(clock: Date) {
  const make = (options: Partial<ConstructorParameters<typeof CiviCrmModel>[0]> = {}) =>
    createSampleModel({
      now: () => clock,
      secret: 'test-secret',
      baseUrl: 'https://crm.example.org',
      ...options,
    });
  const checkIn = (model: CiviCrmModel, values: Record<string, unknown>, context = {}) =>
    model.api4(
      'Activity',
      'create',
      {
        values: {
          'activity_type_id:name': SAMPLE_ACTIVITY_TYPE,
          source_contact_id: PERSON_ID,
          target_contact_id: [ORG_ID],
          ...values,
        },
      },
      context,
    )[0];
  const read = (model: CiviCrmModel, id: unknown, select: string[], extra: Record<string, unknown> = {}) =>
    model.api4('Activity', 'get', { select, where: [['id', '=', id]], ...extra })[0];
  return { make, checkIn, read };
}

/** The sample model the model's specs share, made afresh before each test. */
export interface SampleModelFixture {
  model: CiviCrmModel;
  /** What the model reads as now; a test moves it on by assigning a later date. */
  clock: Date;
}

/** A fresh sample model before each test, on a clock that starts at 2026-11-21 12:00 UTC. */
export function sampleModelPerTest(): SampleModelFixture {
  const fixture = {} as SampleModelFixture;
  beforeEach(() => {
    fixture.clock = new Date('2026-11-21T12:00:00Z');
    fixture.model = createSampleModel({
      now: () => fixture.clock,
      secret: 'test-secret',
      baseUrl: 'https://crm.example.org/',
    });
  });
  return fixture;
}
