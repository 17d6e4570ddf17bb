import { createHmac } from 'node:crypto';
import { FILE_LINK_TTL_SECONDS } from '../src/app/staff-report/file-link-signature';
import { createDemoModel, MULTI_ORG_IDS } from '../src/app/crm/in-memory/demo-data';
import { TEST_API_KEY } from './support/test-app';
import {
  addCheckInWithFiles,
  authHeaders,
  DEMO_ORG_FILE_COUNT,
  fieldReport,
  FILE_ROUTE,
  fileValuesOf,
  payloadOf,
  SITE_KEY,
  staffReport,
  startLiveApp,
  v3Calls,
  WEBSERVER,
  liveAppOptions,
} from './support/staff-report-requests';
import { sharedTestApp } from './support/shared-app';

/** The staff report's signed file URLs (docs/decisions.md, "Staff file links, signed"), against the CRM emulator. */
describe('GET /api/staff/report: signed file URLs', () => {
  const test = sharedTestApp(liveAppOptions());

  describe('signed file URLs', () => {
    it('makes exactly one APIv3 Attachment.get with an IN list, return "id,url" and sequential 1', async () => {
      const payload = await payloadOf(await staffReport(test));
      const referencedIds = [...new Set(fileValuesOf(payload).map((file) => file.id))].sort((a, b) => a - b);
      expect(referencedIds).toHaveLength(DEMO_ORG_FILE_COUNT);

      const [lookup, ...more] = v3Calls(test);
      expect(more).toEqual([]);
      expect(lookup).toMatchObject({
        method: 'POST',
        path: '/civicrm/ajax/rest',
        entity: 'Attachment',
        action: 'get',
      });
      expect(lookup?.params).toEqual({ id: { IN: referencedIds }, return: 'id,url', sequential: 1 });
    });

    it('sends the lookup with the same server-side authentication headers as the APIv4 reads', async () => {
      await payloadOf(await staffReport(test));
      const [lookup] = v3Calls(test);
      const expected = {
        auth: `Bearer ${TEST_API_KEY}`,
        siteKey: SITE_KEY,
        basic: `Basic ${Buffer.from(`${WEBSERVER.user}:${WEBSERVER.password}`).toString('base64')}`,
        requestedWith: 'XMLHttpRequest',
      };
      expect(authHeaders(lookup!)).toEqual(expected);
      for (const call of test.emulator.calls) expect(authHeaders(call)).toEqual(expected);
    });

    it('returns activity-side and organization-side files as {id, file_name, url}', async () => {
      const payload = await payloadOf(await staffReport(test));
      // CiviCRM refuses the v3 id list (HTTP 500): the URLs come from APIv4 File.get.
      expect(payload.fileUrlLookup).toBe('file-get');
      for (const file of fileValuesOf(payload)) {
        expect(file).toEqual({
          id: file.id,
          file_name: expect.any(String),
          // File.get answers the signed address relative to the site; the page resolves it.
          url: expect.stringMatching(new RegExp(`^/civicrm/file\\?reset=1&id=${file.id}&fcs=`)),
        });
      }
      expect(fieldReport(payload, 'Certificate_of_Incorporation').latest).toMatchObject({
        file_name: 'Riverbend_certificate_of_incorporation.pdf',
        url: expect.stringContaining('/civicrm/file?reset=1&id='),
      });
      const studies = fieldReport(payload, 'Feasibility_study').history.map((entry) => entry.value);
      expect(studies).toEqual([
        expect.objectContaining({ file_name: 'Riverbend_market_study_2023.pdf', url: expect.any(String) }),
        expect.objectContaining({ file_name: 'preliminary_market_scan.png', url: expect.any(String) }),
      ]);
    });

    it('still makes one lookup when the organization references many more files', async () => {
      const extra = addCheckInWithFiles(test.emulator.model, 40);
      const payload = await payloadOf(await staffReport(test));
      const lookups = v3Calls(test);
      expect(lookups).toHaveLength(1);
      const ids = (lookups[0]?.params['id'] as { IN: number[] }).IN;
      expect(ids).toHaveLength(DEMO_ORG_FILE_COUNT + extra.length);
      expect(ids).toEqual(expect.arrayContaining(extra));
      expect(fileValuesOf(payload).every((file) => typeof file.url === 'string')).toBe(true);
    });

    it('makes no lookup when no file is referenced', async () => {
      const payload = await payloadOf(await staffReport(test, MULTI_ORG_IDS[0]));
      expect(payload.fileUrlLookup).toBe('skipped');
      expect(v3Calls(test)).toEqual([]);
    });

    it.each([
      ['an APIv3 error envelope', { kind: 'v3error' as const }],
      ['HTTP 500 on the v3 path', { kind: 'http500' as const, entity: 'Attachment' }],
    ])('asks File.get for signed URLs and logs a warning when the lookup fails with %s', async (_, fault) => {
      test.emulator.injectFault(fault);
      const logLines = test.logs.length;
      const payload = await payloadOf(await staffReport(test));

      expect(payload.fileUrlLookup).toBe('file-get');
      const files = fileValuesOf(payload);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files)
        expect(file).toEqual({
          id: expect.any(Number),
          file_name: expect.any(String),
          url: expect.any(String),
        });
      expect(v3Calls(test)).toHaveLength(1);
      const warnings = test.logs
        .slice(logLines)
        .filter((line) => line.includes('"warn"') && line.includes('Attachment URL lookup'));
      expect(warnings).toHaveLength(1);
    });

    it('after the CRM refused the v3 lookup, goes straight to File.get for the pause, saying so once', async () => {
      const paused = await startLiveApp(createDemoModel(), '3600');
      try {
        paused.emulator.injectFault({ kind: 'http500', entity: 'Attachment' });
        const first = await payloadOf(await staffReport(paused));
        const second = await payloadOf(await staffReport(paused));
        const third = await payloadOf(await staffReport(paused));

        expect([first, second, third].map((payload) => payload.fileUrlLookup)).toEqual([
          'file-get',
          'file-get',
          'file-get',
        ]);
        expect(v3Calls(paused)).toHaveLength(1);
        expect(paused.emulator.callsTo('File', 'get')).toHaveLength(3);
        expect(paused.logs.filter((line) => line.includes('refused by this CRM'))).toHaveLength(1);
      } finally {
        await paused.close();
      }
    });

    it('gives the page CRM_BASE_URL and the extension file route, never a credential', async () => {
      const payload = await payloadOf(await staffReport(test));
      expect(payload.crmBaseUrl).toBe(test.emulator.baseUrl);
      expect(payload.fileRouteTemplate).toBe(FILE_ROUTE);
    });
  });

  describe('with FILE_LINK_KEY (the extension holds the same key)', () => {
    const FILE_LINK_KEY = 'Qm7Rt2Vx9Lk4Wp8Zn3Bc6Hd1Fj5Gs0Ya';
    const signing = sharedTestApp(
      {
        env: { FILE_LINK_KEY },
        emulator: { model: createDemoModel() },
      },
      { resetEmulator: false },
    );

    it("links every file through the extension's route, signed with an expiry, and asks the CRM for no URL", async () => {
      const before = Math.floor(Date.now() / 1000);
      const payload = await payloadOf(await staffReport(signing));
      expect(payload.fileUrlLookup).toBe('ok');
      const files = fileValuesOf(payload);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const url = new URL(String(file.url));
        expect(`${url.origin}${url.pathname}`).toBe(`${signing.emulator.baseUrl}/civicrm/checkin-file`);
        expect(url.searchParams.get('id')).toBe(String(file.id));
        const expires = Number(url.searchParams.get('expires'));
        expect(expires).toBeGreaterThanOrEqual(before + FILE_LINK_TTL_SECONDS);
        expect(expires).toBeLessThanOrEqual(before + FILE_LINK_TTL_SECONDS + 60);
        expect(url.searchParams.get('signature')).toBe(
          createHmac('sha256', FILE_LINK_KEY).update(`checkin-file:${file.id}:${expires}`).digest('hex'),
        );
      }
      expect(v3Calls(signing)).toEqual([]);
      expect(signing.emulator.callsTo('File', 'get')).toEqual([]);
    });
  });
});
