import { createDemoModel } from '../src/app/crm/in-memory/demo-data';
import {
  DEMO_LINK,
  ownerQuery,
  requireFrontendServerBuild,
  startTestApp,
  type TestApp,
} from './support/test-app';

/**
 * Every page load counts against the reads rate limit (RATE_LIMIT_READS_PER_MINUTE), the owner
 * pages the service renders with their data and the pages that read nothing alike, as
 * `GET /api/data` and `GET /api/report` do: one counter per
 * address across pages and API reads, refused with 429, `Retry-After` and no CRM call; a page
 * gets a small HTML page, a client asking for JSON the error body (docs/performance.md,
 * "Server-rendered owner pages"). Needs the front end's build (its server entry), as the test
 * runner makes it before the back end's tests.
 */
const link = ownerQuery(DEMO_LINK);
const RATE_LIMITED = {
  statusCode: 429,
  code: 'RATE_LIMITED',
  message: 'Too many requests. Please wait a moment and try again.',
};

describe('reads rate limit on server-rendered owner pages', () => {
  let service: TestApp;

  requireFrontendServerBuild();

  beforeEach(async () => {
    service = await startTestApp({
      emulator: { model: createDemoModel() },
      env: { RATE_LIMIT_READS_PER_MINUTE: '3' },
    });
  });

  afterEach(async () => {
    await service.close();
  });

  it('counts page loads and API reads of one address together, then refuses a page with a 429 page', async () => {
    const form = await service.get(`/?${link}`);
    expect(form.status).toBe(200);
    // Rendered: the page carries its data (the transfer state), so it was a read.
    expect(await form.text()).toContain('id="ng-state"');
    expect((await service.get(`/api/data?${link}`)).status).toBe(200);
    const report = await service.get(`/report?${link}`);
    expect(report.status).toBe(200);
    // The status goes out before the page's reads (docs/performance.md): the page is whole once
    // its body has arrived, and only then are its reads all made.
    expect(await report.text()).toContain('id="ng-state"');
    service.emulator.clearCalls();

    const refused = await service.get(`/report?${link}`, { Accept: 'text/html,application/xhtml+xml' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(refused.headers.get('cache-control')).toBe('private, no-store');
    const page = await refused.text();
    expect(page).toContain('<p role="alert">Too many requests. Please wait a moment and try again.</p>');
    expect(page).not.toMatch(/<script|\bat\s+\S+\s+\(|Error:/);
    // Refused before the data was read: nothing reached the CRM.
    expect(service.emulator.calls).toEqual([]);

    // The API, on the same counter, is refused too.
    const api = await service.get(`/api/data?${link}`);
    expect(api.status).toBe(429);
    expect(await api.json()).toEqual(RATE_LIMITED);
  });

  it('answers a client that asks for JSON with the error body', async () => {
    for (let read = 0; read < 3; read += 1)
      expect((await service.get(`/api/report?${link}`)).status).toBe(200);
    const refused = await service.get(`/?${link}`, { Accept: 'application/json' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect(await refused.json()).toEqual(RATE_LIMITED);
  });

  it('counts a page without a link too, and any other address that is no file (docs/decisions.md, "Limits")', async () => {
    // Without its link the form answers 401, as `GET /api/data` would (docs/decisions.md, "Page statuses").
    expect((await service.get('/')).status).toBe(401);
    expect((await service.get('/no-such-page')).status).toBe(404);
    expect((await service.get(`/api/data?${link}`)).status).toBe(200);
    expect((await service.get('/staff')).status).toBe(429);
    expect((await service.get(`/api/data?${link}`)).status).toBe(429);
  });
});
