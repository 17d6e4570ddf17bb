import { DEMO_ORG_ID } from '../src/app/crm/in-memory/demo-data';
import { callsIn } from '../src/app/metrics/metrics.service';
import { SERVICE_VERSION } from '../src/app/release';
import { DEMO_LINK, ownerQuery, TEST_ADMIN_KEY, TEST_STAFF_KEY } from './support/test-app';
import { sharedTestApp } from './support/shared-app';

/** docs/operations.md, "Metrics": Prometheus text behind the admin key. */
describe('GET /metrics', () => {
  const test = sharedTestApp(
    {
      env: {
        NODE_ENV: 'production',
        PUBLIC_BASE_URL: 'https://checkin.example.org',
      },
    },
    { resetEmulator: false },
  );

  it.each([
    ['no key', {}],
    ['a wrong key', { 'X-Admin-Key': `${TEST_ADMIN_KEY}-wrong` }],
  ])('is refused with %s: 401 JSON, no metric', async (_case, headers) => {
    const response = await test.get('/metrics', headers);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'ADMIN_KEY_INVALID' });
  });

  it('answers Prometheus text to the admin key, as a header or a bearer credential', async () => {
    const report = await test.get(`/api/staff/report?orgId=${DEMO_ORG_ID}`, {
      'X-Staff-Key': TEST_STAFF_KEY,
    });
    expect(report.status).toBe(200);
    await test.get(`/api/form-data?${ownerQuery(DEMO_LINK)}`);

    const byHeader = await test.get('/metrics', { 'X-Admin-Key': TEST_ADMIN_KEY });
    const scraped = await test.get('/metrics', { Authorization: `Bearer ${TEST_ADMIN_KEY}` });
    expect(byHeader.status).toBe(200);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain;.*version=0.0.4/);
    expect(scraped.headers.get('cache-control')).toBe('no-store');
    const text = await scraped.text();
    expect(text).toContain(
      'checkin_http_requests_total{route="/api/staff/report",method="GET",status="200"} 1',
    );
    expect(text).toMatch(
      /checkin_http_request_duration_seconds_bucket\{le="0.5",route="\/api\/staff\/report",method="GET"\} \d/,
    );
    expect(text).toMatch(/checkin_crm_calls_total\{entity="Contact",action="get",outcome="ok"\} [1-9]/);
    expect(text).toMatch(/checkin_crm_call_duration_seconds_count\{entity="Contact",action="get"\} [1-9]/);
    expect(text).toContain('checkin_crm_calls_waiting 0');
    expect(text).toContain('checkin_crm_connection_waits_total 0');
    expect(text).toMatch(/checkin_self_check_findings\{code="all"\} \d+/);
    expect(text).toContain(`checkin_build_info{version="${SERVICE_VERSION}"} 1`);
    expect(text).toContain('checkin_process_resident_memory_bytes');
    // No secret, no address with its query.
    expect(text).not.toContain(TEST_ADMIN_KEY);
    expect(text).not.toContain(TEST_STAFF_KEY);
    expect(text).not.toContain('orgId=');
  });

  it('is not a page of the front end', async () => {
    const response = await test.get('/metrics');
    expect(response.headers.get('content-type')).toContain('application/json');
  });
});

describe('rate-limit refusals in /metrics', () => {
  const test = sharedTestApp({ env: { RATE_LIMIT_CHECKSUM_FAILURES: '1' } }, { resetEmulator: false });

  it('counts each 429 by route', async () => {
    const wrong = { 'X-Staff-Key': 'wrong-staff-key-0123456789' };
    expect((await test.get(`/api/staff/report?orgId=${DEMO_ORG_ID}`, wrong)).status).toBe(401);
    expect((await test.get(`/api/staff/report?orgId=${DEMO_ORG_ID}`, wrong)).status).toBe(429);
    const text = await (await test.get('/metrics', { 'X-Admin-Key': TEST_ADMIN_KEY })).text();
    expect(text).toContain(
      'checkin_http_requests_total{route="/api/staff/report",method="GET",status="429"} 1',
    );
    expect(text).toContain('checkin_rate_limit_refusals_total{route="/api/staff/report"} 1');
  });
});

describe('CRM call labels', () => {
  it('splits batches and names APIv3 calls', () => {
    expect(callsIn('Contact.get')).toEqual([{ entity: 'Contact', action: 'get' }]);
    expect(callsIn('v3 Attachment.get')).toEqual([{ entity: 'Attachment', action: 'v3.get' }]);
    expect(callsIn('batch(Contact.get, Activity.get)')).toEqual([
      { entity: 'Contact', action: 'get' },
      { entity: 'Activity', action: 'get' },
    ]);
  });
});
