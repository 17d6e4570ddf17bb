import { CiviCrmEmulator, DEFAULT_EMULATOR_LOGIN } from '../../emulator';
import { PERSON_ID, SAMPLE_CHECKSUM, createSampleModel } from '../spec-support/sample-site';
import { ANONYMOUS, API_KEY, HEADERS, sampleEmulatorPerFile } from '../spec-support/emulator-specs';

describe('the HTTP emulator imitating a release', () => {
  const site = sampleEmulatorPerFile();
  const { api4 } = site;

  describe('imitating a release', () => {
    it('decodes File.create content only with the service’s marker header, and answers the stored name', async () => {
      const params = {
        values: {
          file_name: 'market study.pdf',
          mime_type: 'application/pdf',
          content: Buffer.from('%PDF').toString('base64'),
        },
      };
      const marked = await fetch(`${site.emulator.baseUrl}/civicrm/ajax/api4/File/create`, {
        method: 'POST',
        headers: { ...HEADERS, 'X-Checkin-Content-Encoding': 'base64' },
        body: new URLSearchParams({ params: JSON.stringify(params) }),
      });
      const [file] = ((await marked.json()) as { values: Array<Record<string, unknown>> }).values;
      expect(file).toMatchObject({ file_name: 'market_study.pdf', checkin_content_decoded: true });
      expect(site.emulator.model.getFile(Number(file?.['id']))?.content.toString()).toBe('%PDF');
      const plain = (await (await api4('File', 'create', params)).json()) as {
        values: Array<Record<string, unknown>>;
      };
      expect(site.emulator.model.getFile(Number(plain.values[0]?.['id']))?.content.toString()).toBe(
        'JVBERg==',
      );
      const invalid = await fetch(`${site.emulator.baseUrl}/civicrm/ajax/api4/File/create`, {
        method: 'POST',
        headers: { ...HEADERS, 'X-Checkin-Content-Encoding': 'base64' },
        body: new URLSearchParams({
          params: JSON.stringify({
            values: { file_name: 'x.pdf', mime_type: 'application/pdf', content: '%%%' },
          }),
        }),
      });
      expect(invalid.status).toBe(500);
      expect(await invalid.json()).toMatchObject({ status: 500, error_code: 0 });
    });

    it('answers CheckinMiddleware.info, and refuses getChecksum to a non-admin API user with 403', async () => {
      const limited = await CiviCrmEmulator.start({
        createModel: createSampleModel,
        apiKey: API_KEY,
        timeZone: 'America/Chicago',
        apiUsers: {
          'form-key': {
            permissions: [
              'authenticate with api key',
              'access CiviCRM',
              'view all contacts',
              'view debug output',
            ],
          },
          'unguarded-key': { permissions: ['access CiviCRM', 'view all contacts'] },
        },
      });
      try {
        const call = (key: string, entity: string, action: string, params: unknown) =>
          fetch(`${limited.baseUrl}/civicrm/ajax/api4/${entity}/${action}`, {
            method: 'POST',
            headers: { 'X-Civi-Auth': `Bearer ${key}` },
            body: new URLSearchParams({ params: JSON.stringify(params) }),
          });
        const info = await call(API_KEY, 'CheckinMiddleware', 'info', {});
        expect(await info.json()).toMatchObject({
          values: [
            {
              extension_version: expect.any(String),
              civicrm_version: '6.14.alpha1',
              timezone: 'America/Chicago',
            },
          ],
        });
        const refused = await call('form-key', 'Contact', 'getChecksum', { contactId: PERSON_ID });
        expect(refused.status).toBe(403);
        expect(await refused.json()).toMatchObject({ error_message: 'Authorization failed', status: 403 });
        expect((await call(API_KEY, 'Contact', 'getChecksum', { contactId: PERSON_ID })).status).toBe(200);
        const validated = await call('form-key', 'Contact', 'validateChecksum', {
          contactId: PERSON_ID,
          checksum: SAMPLE_CHECKSUM,
        });
        expect(await validated.json()).toMatchObject({ values: [{ valid: true }] });
        // authx's guard: without the site key, an API key needs "authenticate with api key".
        const unguarded = await call('unguarded-key', 'Contact', 'get', { limit: 1 });
        expect(unguarded.status).toBe(401);
        expect(await unguarded.text()).toBe(
          'HTTP 401 Login not permitted. Must satisfy guard (site_key, perm).',
        );
      } finally {
        await limited.stop();
      }
    });

    describe('5.81.1 without the extension', () => {
      let old: CiviCrmEmulator;
      beforeAll(async () => {
        old = await CiviCrmEmulator.start({
          createModel: createSampleModel,
          apiKey: API_KEY,
          civicrmVersion: '5.81',
          extensionInstalled: false,
        });
      });
      afterAll(() => old.stop());

      const post = (path: string, fields: Record<string, string>) =>
        fetch(`${old.baseUrl}${path}`, {
          method: 'POST',
          headers: HEADERS,
          body: new URLSearchParams(fields),
        });

      it('dies with an empty HTTP 500 on Attachment.get with id IN', async () => {
        const response = await post('/civicrm/ajax/rest', {
          entity: 'Attachment',
          action: 'get',
          json: JSON.stringify({ id: { IN: [1, 2] }, return: 'id,url', sequential: 1 }),
        });
        expect(response.status).toBe(500);
        expect(await response.text()).toBe('');
      });

      it('logs in with `username` (6.14’s `identifier` is an unknown parameter there)', async () => {
        const login = (params: Record<string, string>) =>
          fetch(`${old.baseUrl}/civicrm/ajax/api4/User/login`, {
            method: 'POST',
            headers: ANONYMOUS,
            body: new URLSearchParams({ params: JSON.stringify(params) }),
          });
        const ok = await login({ username: 'admin', password: DEFAULT_EMULATOR_LOGIN.password });
        expect(await ok.json()).toMatchObject({ values: { url: '/civicrm' } });
        expect(ok.headers.get('set-cookie')).toMatch(/^SESSCIVISO=[0-9a-f]{64}; path=\/; HttpOnly$/);
        const modern = await login({ identifier: 'admin', password: DEFAULT_EMULATOR_LOGIN.password });
        expect(modern.status).toBe(500);
        expect(await modern.json()).toMatchObject({ error_code: '1', status: 500 });
      });

      it('answers an unknown API (the extension’s) with 500 and no error_id', async () => {
        const response = await post('/civicrm/ajax/api4/CheckinMiddleware/info', { params: '{}' });
        expect(response.status).toBe(500);
        expect(await response.json()).toEqual({
          error_code: 0,
          error_message:
            'API (CheckinMiddleware, info) does not exist (or the extension it belongs to is not enabled).',
          status: 500,
        });
      });

      it('stores no bytes for File.create, marker or not, and has no extension route', async () => {
        const response = await fetch(`${old.baseUrl}/civicrm/ajax/api4/File/create`, {
          method: 'POST',
          headers: { ...HEADERS, 'X-Checkin-Content-Encoding': 'base64' },
          body: new URLSearchParams({
            params: JSON.stringify({
              values: { file_name: 'a.pdf', mime_type: 'application/pdf', content: 'JVBERg==' },
            }),
          }),
        });
        const [file] = ((await response.json()) as { values: Array<Record<string, unknown>> }).values;
        expect(file).not.toHaveProperty('checkin_content_decoded');
        expect(old.model.getFile(Number(file?.['id']))).toMatchObject({ uri: null, size: 0 });
        const page = await fetch(`${old.baseUrl}/civicrm/checkin-file?id=${String(file?.['id'])}`, {
          headers: { 'X-Civi-Auth': `Bearer ${API_KEY}` },
        });
        expect(page.headers.get('content-type')).toMatch(/^text\/html/);
        expect((await fetch(`${old.baseUrl}/civicrm/checkin-file?id=1`)).status).toBe(403);
      });
    });
  });
});
