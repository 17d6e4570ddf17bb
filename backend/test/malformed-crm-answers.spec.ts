import type { CrmClient } from '../src/app/crm/crm-client';
import { CRM_CLIENT } from '../src/app/crm/crm-client';
import { ownerQuery, startTestApp, type TestApp, DEMO_LINK } from './support/test-app';

/** docs/decisions.md, "CRM failures": a row of the wrong shape is a CRM failure, not a crash. */
describe('a malformed row from the CRM', () => {
  let test: TestApp;
  let crm: CrmClient;

  beforeAll(async () => {
    test = await startTestApp({ stub: true });
    crm = test.app.get<CrmClient>(CRM_CLIENT);
  });

  afterAll(() => test.close());
  afterEach(() => jest.restoreAllMocks());

  /** Answers `rows` to the one call named, everything else as the CRM would. */
  function answer(entity: string, action: string, rows: unknown[]): void {
    const real = crm.api4.bind(crm);
    jest
      .spyOn(crm, 'api4')
      .mockImplementation((callEntity, callAction, params) =>
        callEntity === entity && callAction === action
          ? Promise.resolve(rows as never)
          : real(callEntity, callAction, params),
      );
  }

  it.each([
    [
      'a relationship whose contact id is a string',
      'Relationship',
      'get',
      [{ contact_id_a: '7', contact_id_b: 8 }],
    ],
    ['a validateChecksum answer whose valid is a string', 'Contact', 'validateChecksum', [{ valid: 'yes' }]],
    ['a check-in without an id', 'Activity', 'get', [{ activity_date_time: '2026-01-01 10:00:00' }]],
    ['a row that is not an object', 'Contact', 'get', ['Contact 7']],
  ])('is answered 502 CRM_UNAVAILABLE in JSON: %s', async (_name, entity, action, rows) => {
    answer(entity, action, rows);
    const response = await test.get(`/api/data?${ownerQuery(DEMO_LINK)}`);
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ statusCode: 502, code: 'CRM_UNAVAILABLE' });
  });

  it('the same route answers 200 with well-formed rows', async () => {
    expect((await test.get(`/api/data?${ownerQuery(DEMO_LINK)}`)).status).toBe(200);
  });
});
