import {
  CiviCrmEmulator,
  DEFAULT_EMULATOR_API_KEY,
  DEFAULT_EMULATOR_LOGIN,
  parseEmulatorArgs,
} from '../../emulator';
import {
  ORG_ID,
  PERSON_ID,
  SAMPLE_ACTIVITY_TYPE,
  SAMPLE_CHECKSUM,
  createSampleModel,
} from '../spec-support/sample-site';

const API_KEY = 'spec-api-key';
const HEADERS = { 'X-Civi-Auth': `Bearer ${API_KEY}`, 'X-Requested-With': 'XMLHttpRequest' };
/** What a browser's CRM.api4() sends without a session: no credential at all. */
const ANONYMOUS = { 'X-Requested-With': 'XMLHttpRequest' };

type Row = Record<string, unknown>;
/** The APIv4 envelope (or a batch call's result) as these tests read it. */
interface Envelope {
  values: Row[];
  count: number;
  status?: number;
}

async function envelope(response: Response): Promise<Envelope> {
  return (await response.json()) as Envelope;
}

interface CallOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

describe('CiviCrmEmulator', () => {
  let emulator: CiviCrmEmulator;

  beforeAll(async () => {
    emulator = await CiviCrmEmulator.start({ apiKey: API_KEY, createModel: createSampleModel });
  });
  afterAll(() => emulator.stop());
  beforeEach(() => emulator.reset());

  /** An APIv4 call the way the live client sends it: GET with a query, POST with a form. */
  function api4(
    entity: string,
    action: string,
    params?: unknown,
    options: CallOptions = {},
  ): Promise<Response> {
    const method = options.method ?? (action.startsWith('get') ? 'GET' : 'POST');
    const form = new URLSearchParams(params === undefined ? {} : { params: JSON.stringify(params) });
    const url = `${emulator.baseUrl}/civicrm/ajax/api4/${entity}/${action}`;
    const headers = options.headers ?? HEADERS;
    return method === 'GET'
      ? fetch(`${url}?${form.toString()}`, { headers, ...(options.signal ? { signal: options.signal } : {}) })
      : fetch(url, { method, headers, body: form, ...(options.signal ? { signal: options.signal } : {}) });
  }

  function api3(
    fields: Record<string, string>,
    headers: Record<string, string> = HEADERS,
  ): Promise<Response> {
    return fetch(`${emulator.baseUrl}/civicrm/ajax/rest`, {
      method: 'POST',
      headers,
      body: new URLSearchParams(fields),
    });
  }

  const samplePerson = { select: ['first_name'], where: [['id', '=', PERSON_ID]] };

  describe('APIv4', () => {
    it('answers a get by GET with the APIv4 envelope', async () => {
      const response = await api4('Contact', 'get', samplePerson);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual({
        values: [{ id: PERSON_ID, first_name: 'Marisol' }],
        entity: 'Contact',
        action: 'get',
        debug: null,
        version: 4,
        count: 1,
        countFetched: 1,
      });
    });

    it('reads params from a POSTed form as well', async () => {
      const response = await api4('Contact', 'get', samplePerson, { method: 'POST' });
      expect((await envelope(response)).values).toEqual([{ id: PERSON_ID, first_name: 'Marisol' }]);
    });

    it('reads params from a multipart form', async () => {
      const body = new FormData();
      body.set('params', JSON.stringify(samplePerson));
      const response = await fetch(`${emulator.baseUrl}/civicrm/ajax/api4/Contact/get`, {
        method: 'POST',
        headers: HEADERS,
        body,
      });
      expect((await envelope(response)).count).toBe(1);
    });

    it('ignores a raw JSON body: the call runs with no params', async () => {
      const response = await fetch(`${emulator.baseUrl}/civicrm/ajax/api4/Contact/get`, {
        method: 'POST',
        headers: { ...HEADERS, 'Content-Type': 'application/json' },
        body: JSON.stringify({ params: samplePerson }),
      });
      const body = await envelope(response);
      expect(body.count).toBeGreaterThan(1);
      expect(emulator.calls.at(-1)?.params).toEqual({});
    });

    it('creates records by POST', async () => {
      const response = await api4('Activity', 'create', {
        values: {
          'activity_type_id:name': SAMPLE_ACTIVITY_TYPE,
          source_contact_id: PERSON_ID,
          target_contact_id: [ORG_ID],
          'Check_in_data__organizing_.Member_owner_count': 1300,
        },
      });
      expect(response.status).toBe(200);
      const [created] = (await envelope(response)).values;
      const [stored] = emulator.model.api4('Activity', 'get', {
        select: ['Check_in_data__organizing_.Member_owner_count'],
        where: [['id', '=', created?.['id']]],
      });
      expect(stored?.['Check_in_data__organizing_.Member_owner_count']).toBe(1300);
    });

    it('refuses a write by GET with 405', async () => {
      const response = await api4(
        'Contact',
        'validateChecksum',
        { contactId: PERSON_ID, checksum: SAMPLE_CHECKSUM },
        { method: 'GET' },
      );
      expect(response.status).toBe(405);
      expect(await response.json()).toMatchObject({ status: 405 });
    });

    it('answers CiviCRM errors as 500 JSON', async () => {
      const response = await api4('Contact', 'get', { where: [['nope', '=', 1]] });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({
        error_id: expect.stringMatching(/^[\w-]{4}-[\w-]{4}-[\w-]{4}$/),
        error_code: 0,
        error_message: "Invalid field 'nope'",
        status: 500,
      });
    });

    it('refuses sequential, an APIv3 habit, with a 500', async () => {
      expect((await api4('Contact', 'get', { sequential: 1 })).status).toBe(500);
    });

    it('answers params that are not JSON with a 500', async () => {
      const response = await fetch(`${emulator.baseUrl}/civicrm/ajax/api4/Contact/get?params=%7Bnope`, {
        headers: HEADERS,
      });
      expect(response.status).toBe(500);
    });

    it('validates checksums by POST', async () => {
      const response = await api4('Contact', 'validateChecksum', {
        contactId: PERSON_ID,
        checksum: SAMPLE_CHECKSUM,
      });
      expect((await envelope(response)).values).toEqual([{ valid: true }]);
    });
  });

  describe('APIv4 batch', () => {
    const batch = (calls: unknown) =>
      fetch(`${emulator.baseUrl}/civicrm/ajax/api4`, {
        method: 'POST',
        headers: HEADERS,
        body: new URLSearchParams({ calls: JSON.stringify(calls) }),
      });

    it('answers an object of per-call results under the same keys', async () => {
      const response = await batch({
        person: ['Contact', 'get', samplePerson, 0],
        check: ['Contact', 'validateChecksum', { contactId: PERSON_ID, checksum: 'wrong' }],
        broken: ['Contact', 'get', { where: [['nope', '=', 1]] }],
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as Record<string, Envelope>;
      expect(body['person']).toMatchObject({
        values: { id: PERSON_ID, first_name: 'Marisol' },
        count: 1,
      });
      expect(body['check']?.values).toEqual([{ valid: false }]);
      expect(body['broken']).toMatchObject({ status: 500, error_message: expect.any(String) });
      expect(emulator.callsTo('Contact').map((call) => call.batchKey)).toEqual(['person', 'check', 'broken']);
    });

    it('refuses a batch sent by GET, even one of reads, as CiviCRM does (405)', async () => {
      const calls = JSON.stringify({ person: ['Contact', 'get', samplePerson] });
      const response = await fetch(
        `${emulator.baseUrl}/civicrm/ajax/api4?${new URLSearchParams({ calls })}`,
        {
          headers: HEADERS,
        },
      );
      expect(response.status).toBe(405);
    });

    it('answers with the error status when every call failed', async () => {
      const response = await batch({ broken: ['Contact', 'get', { where: [['nope', '=', 1]] }] });
      expect(response.status).toBe(500);
    });
  });

  describe('gates', () => {
    it.each([
      ['with a wrong key', { ...HEADERS, 'X-Civi-Auth': 'Bearer wrong' }],
      ['without the word Bearer', { ...HEADERS, 'X-Civi-Auth': API_KEY }],
      ['with a wrong key in Authorization', { ...ANONYMOUS, Authorization: 'Bearer wrong' }],
    ])('refuses a call %s with 401 text', async (_label, headers) => {
      const response = await api4('Contact', 'get', samplePerson, { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await response.text()).toBe('HTTP 401 Invalid credential');
    });

    it('reads a bearer key from Authorization when X-Civi-Auth is absent', async () => {
      const response = await api4('Contact', 'get', samplePerson, {
        headers: { ...ANONYMOUS, Authorization: `Bearer ${API_KEY}` },
      });
      expect(await response.json()).toMatchObject({ count: 1 });
    });

    it('answers an anonymous call: contacts filtered to nothing (200), other entities 403', async () => {
      const contacts = await api4('Contact', 'get', samplePerson, { headers: ANONYMOUS });
      expect(contacts.status).toBe(200);
      expect(await contacts.json()).toMatchObject({ values: [], count: 0 });
      const activities = await api4('Activity', 'get', { limit: 1 }, { headers: ANONYMOUS });
      expect(activities.status).toBe(403);
      // No debug permission: the message is CiviCRM's generic one.
      expect(await activities.json()).toEqual({
        error_code: '1',
        error_message: expect.stringMatching(
          /^Sorry an error occurred and your request was not completed\. \(Error ID: /,
        ),
        status: 403,
      });
      const create = await api4('Activity', 'create', { values: { subject: 'x' } }, { headers: ANONYMOUS });
      expect(create.status).toBe(403);
    });

    it('validates checksums anonymously', async () => {
      const response = await api4(
        'Contact',
        'validateChecksum',
        { contactId: PERSON_ID, checksum: SAMPLE_CHECKSUM },
        { headers: ANONYMOUS },
      );
      expect(await response.json()).toMatchObject({ values: [{ valid: true }] });
    });

    it('needs X-Requested-With without a key (anonymous), not with one', async () => {
      const anonymous = await api4('Contact', 'get', samplePerson, { headers: {} });
      expect(anonymous.status).toBe(400);
      expect(await anonymous.json()).toEqual({
        error_code: 400,
        error_message:
          'SECURITY ALERT: Ajax requests can only be issued by javascript clients, eg. CRM.api4().',
      });
      const keyed = await api4('Contact', 'get', samplePerson, {
        headers: { 'X-Civi-Auth': `Bearer ${API_KEY}` },
      });
      expect(keyed.status).toBe(200);
    });

    it('records refused calls too', async () => {
      await api4('Contact', 'get', samplePerson, { headers: { 'X-Civi-Auth': 'Bearer wrong' } });
      expect(emulator.calls).toEqual([
        expect.objectContaining({ entity: 'Contact', action: 'get', status: 401 }),
      ]);
    });

    describe('with a site key and Basic Auth in front', () => {
      let guarded: CiviCrmEmulator;
      const basic = `Basic ${Buffer.from('web:secret').toString('base64')}`;
      const full = { ...HEADERS, 'X-Civi-Key': 'site-key', Authorization: basic };

      beforeAll(async () => {
        guarded = await CiviCrmEmulator.start({
          createModel: createSampleModel,
          apiKey: API_KEY,
          siteKey: 'site-key',
          basicAuth: { user: 'web', password: 'secret' },
        });
      });
      afterAll(() => guarded.stop());

      const call = (headers: Record<string, string>) =>
        fetch(`${guarded.baseUrl}/civicrm/ajax/api4/Contact/get`, { headers });

      it('accepts Basic Auth for the webserver together with X-Civi-Auth and X-Civi-Key', async () => {
        expect((await call(full)).status).toBe(200);
      });

      it('checks Basic Auth first and asks for it with WWW-Authenticate', async () => {
        const response = await call({ ...full, Authorization: 'Basic d3Jvbmc6d3Jvbmc=' });
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Basic realm="CiviCRM"');
      });

      it('refuses a missing or wrong site key', async () => {
        expect((await call({ ...full, 'X-Civi-Key': 'wrong' })).status).toBe(401);
        const withoutKey: Record<string, string> = { ...full };
        delete withoutKey['X-Civi-Key'];
        expect((await call(withoutKey)).status).toBe(401);
      });
    });
  });

  describe('APIv3 and files', () => {
    /** The sample organization's certificate: a file held by a custom field. */
    const fileId = () =>
      Number(
        emulator.model.api4('Contact', 'get', {
          select: ['Food_Co_op_Organizing.Certificate_of_Incorporation'],
          where: [['id', '=', ORG_ID]],
        })[0]?.['Food_Co_op_Organizing.Certificate_of_Incorporation'],
      );
    const login = async (password: string = DEFAULT_EMULATOR_LOGIN.password) => {
      const response = await api4(
        'User',
        'login',
        { identifier: DEFAULT_EMULATOR_LOGIN.username, password },
        { headers: ANONYMOUS },
      );
      return { response, cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '' };
    };

    it('dies with an HTML error page (HTTP 500) on Attachment.get with id IN', async () => {
      const response = await api3({
        entity: 'Attachment',
        action: 'get',
        json: JSON.stringify({ id: { IN: [fileId()] }, return: 'id,url', sequential: 1 }),
      });
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toContain(
        'htmlentities(): Argument #1 ($string) must be of type string, array given',
      );
      expect(emulator.calls).toEqual([
        expect.objectContaining({ version: 3, entity: 'Attachment', action: 'get', status: 500 }),
      ]);
    });

    it('answers Attachment.get for one id with a signed url that serves the file to a logged-in user', async () => {
      const id = fileId();
      const response = await api3({
        entity: 'Attachment',
        action: 'get',
        json: JSON.stringify({ id, return: 'id,url', sequential: 1 }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { values: Array<{ url: string }> };
      expect(body).toMatchObject({
        is_error: 0,
        version: 3,
        count: 1,
        values: [
          {
            id: String(id),
            url: expect.stringContaining(`${emulator.baseUrl}/civicrm/file?reset=1&id=${id}&fcs=`),
          },
        ],
      });
      const url = body.values[0]?.url ?? '';
      expect((await fetch(url)).status).toBe(403);
      const { response: loggedIn, cookie } = await login();
      expect(await loggedIn.json()).toMatchObject({ values: { url: '/civicrm/home' } });
      const file = await fetch(url, { headers: { Cookie: cookie } });
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      expect(file.headers.get('content-disposition')).toBe(
        'download; filename="Riverbend_certificate_of_incorporation.pdf"',
      );
      expect(Buffer.from(await file.arrayBuffer())).toEqual(emulator.model.getFile(id)?.content);
      // authx: the API key opens the page as well.
      expect((await fetch(url, { headers: { 'X-Civi-Auth': `Bearer ${API_KEY}` } })).status).toBe(200);
    });

    it('answers a file address without fcs with 500 and a forged one with a bounce, even when logged in', async () => {
      const { cookie } = await login();
      const base = `${emulator.baseUrl}/civicrm/file?reset=1&id=${fileId()}`;
      const unsigned = await fetch(base, { headers: { Cookie: cookie } });
      expect(unsigned.status).toBe(500);
      const forged = await fetch(`${base}&fcs=forged`, { headers: { Cookie: cookie }, redirect: 'manual' });
      expect(forged.status).toBe(302);
      expect(forged.headers.get('location')).toBe(`${emulator.baseUrl}/`);
    });

    it('lets a logged-in session call the API with X-Requested-With, as the back office does', async () => {
      const { cookie } = await login();
      const withSession = await api4('Contact', 'get', samplePerson, {
        headers: { ...ANONYMOUS, Cookie: cookie },
      });
      expect(await withSession.json()).toMatchObject({ count: 1 });
      const forged = await api4('Contact', 'get', samplePerson, {
        headers: { ...ANONYMOUS, Cookie: 'SESSCIVISO=forged' },
      });
      expect(await forged.json()).toMatchObject({ count: 0 });
      emulator.reset();
      const afterReset = await api4('Contact', 'get', samplePerson, {
        headers: { ...ANONYMOUS, Cookie: cookie },
      });
      expect(await afterReset.json()).toMatchObject({ count: 0 });
    });

    it('refuses a wrong password without a session', async () => {
      const { response, cookie } = await login('wrong');
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ values: { publicError: 'Invalid credentials' } });
      expect(cookie).toBe('');
    });

    it('serves the extension route to a logged-in user: the bytes, 404 for an unknown id, 403 when anonymous', async () => {
      const id = fileId();
      const { cookie } = await login();
      const file = await fetch(`${emulator.baseUrl}/civicrm/checkin-file?id=${id}`, {
        headers: { Cookie: cookie },
      });
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer())).toEqual(emulator.model.getFile(id)?.content);
      const byPath = await fetch(`${emulator.baseUrl}/civicrm/checkin-file/${id}`, {
        headers: { Cookie: cookie },
      });
      expect(byPath.status).toBe(200);
      expect(
        (await fetch(`${emulator.baseUrl}/civicrm/checkin-file?id=99999`, { headers: { Cookie: cookie } }))
          .status,
      ).toBe(404);
      expect((await fetch(`${emulator.baseUrl}/civicrm/checkin-file?id=${id}`)).status).toBe(403);
    });

    it('serves the extension route only to users with "access uploaded files"', async () => {
      const limited = await CiviCrmEmulator.start({
        createModel: createSampleModel,
        apiKey: API_KEY,
        apiUsers: { 'staff-key': { permissions: ['authenticate with api key', 'access CiviCRM'] } },
      });
      try {
        const url = `${limited.baseUrl}/civicrm/checkin-file?id=${fileId()}`;
        expect((await fetch(url, { headers: { 'X-Civi-Auth': 'Bearer staff-key' } })).status).toBe(403);
        expect((await fetch(url, { headers: { 'X-Civi-Auth': `Bearer ${API_KEY}` } })).status).toBe(200);
      } finally {
        await limited.stop();
      }
    });

    it('answers an array-valued return with HTTP 200 and is_error', async () => {
      const response = await api3({
        entity: 'Attachment',
        action: 'get',
        json: JSON.stringify({ id: fileId(), return: ['id', 'url'] }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        is_error: 1,
        error_message: expect.stringContaining('must be of type string, array given'),
      });
    });

    it('keeps the v3 envelope for a missing X-Requested-With without a key, and the 401 for bad credentials', async () => {
      const fields = { entity: 'Attachment', action: 'get', json: JSON.stringify({ id: fileId() }) };
      const csrf = await api3(fields, {});
      expect(csrf.status).toBe(200);
      expect(await csrf.json()).toMatchObject({ is_error: 1 });
      expect((await api3(fields, { ...ANONYMOUS, 'X-Civi-Auth': 'Bearer wrong' })).status).toBe(401);
      // Anonymous: civicrm/ajax/rest needs "access CiviCRM", so Standalone shows its login page.
      const anonymous = await api3(fields, ANONYMOUS);
      expect(anonymous.status).toBe(403);
      expect(await anonymous.text()).toContain('You need to be logged in to access this page.');
    });
  });

  describe('imitating a release', () => {
    it('decodes File.create content only with the service’s marker header, and answers the stored name', async () => {
      const params = {
        values: {
          file_name: 'market study.pdf',
          mime_type: 'application/pdf',
          content: Buffer.from('%PDF').toString('base64'),
        },
      };
      const marked = await fetch(`${emulator.baseUrl}/civicrm/ajax/api4/File/create`, {
        method: 'POST',
        headers: { ...HEADERS, 'X-Checkin-Content-Encoding': 'base64' },
        body: new URLSearchParams({ params: JSON.stringify(params) }),
      });
      const [file] = ((await marked.json()) as { values: Array<Record<string, unknown>> }).values;
      expect(file).toMatchObject({ file_name: 'market_study.pdf', checkin_content_decoded: true });
      expect(emulator.model.getFile(Number(file?.['id']))?.content.toString()).toBe('%PDF');
      const plain = (await (await api4('File', 'create', params)).json()) as {
        values: Array<Record<string, unknown>>;
      };
      expect(emulator.model.getFile(Number(plain.values[0]?.['id']))?.content.toString()).toBe('JVBERg==');
      const invalid = await fetch(`${emulator.baseUrl}/civicrm/ajax/api4/File/create`, {
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

  describe('recording', () => {
    it('records version, method, path, entity, action, parsed params, lowercased headers, status, answer size and time', async () => {
      const before = Date.now();
      await api4('Contact', 'get', samplePerson);
      expect(emulator.calls).toEqual([
        {
          version: 4,
          method: 'GET',
          path: '/civicrm/ajax/api4/Contact/get',
          entity: 'Contact',
          action: 'get',
          params: samplePerson,
          headers: expect.objectContaining({
            'x-civi-auth': `Bearer ${API_KEY}`,
            'x-requested-with': 'XMLHttpRequest',
          }),
          status: 200,
          answerBytes: expect.any(Number),
          at: expect.any(Number),
        },
      ]);
      expect(emulator.calls[0]?.at).toBeGreaterThanOrEqual(before);
    });

    it('lists writes, File.create included, but not checksum calls', async () => {
      await api4('Contact', 'validateChecksum', { contactId: PERSON_ID, checksum: SAMPLE_CHECKSUM });
      await api4('Contact', 'getChecksum', { contactId: PERSON_ID, ttl: 1 }, { method: 'POST' });
      await api4('File', 'create', {
        values: { file_name: 'a.pdf', mime_type: 'application/pdf', content: 'JVBERi0=' },
      });
      await api4('Contact', 'update', { values: { first_name: 'M' }, where: [['id', '=', PERSON_ID]] });
      expect(emulator.writes().map((call) => `${call.entity}.${call.action}`)).toEqual([
        'File.create',
        'Contact.update',
      ]);
      expect(emulator.callsTo('Contact', 'validateChecksum')).toHaveLength(1);
      expect(emulator.callsTo('Contact')).toHaveLength(3);
      emulator.clearCalls();
      expect(emulator.calls).toEqual([]);
    });

    it('keeps only the newest calls when given a record limit', async () => {
      const limited = await CiviCrmEmulator.start({
        apiKey: API_KEY,
        createModel: createSampleModel,
        recordLimit: 2,
      });
      try {
        for (const id of [1, 2, 3]) {
          await fetch(
            `${limited.baseUrl}/civicrm/ajax/api4/Contact/get?${new URLSearchParams({ params: JSON.stringify({ where: [['id', '=', id]] }) })}`,
            { headers: HEADERS },
          );
        }
        expect(limited.calls.map((call) => call.params)).toEqual([
          { where: [['id', '=', 2]] },
          { where: [['id', '=', 3]] },
        ]);
      } finally {
        await limited.stop();
      }
    });
  });

  describe('faults and latency', () => {
    it("'down' destroys the connection without an answer", async () => {
      emulator.injectFault({ kind: 'down' });
      await expect(api4('Contact', 'get', samplePerson)).rejects.toThrow();
      expect(emulator.calls[0]?.status).toBe(0);
    });

    it("'slow' answers only after the delay, so a client timeout fires first", async () => {
      emulator.injectFault({ kind: 'slow', delayMs: 5_000 });
      const call = api4('Contact', 'get', samplePerson, { signal: AbortSignal.timeout(100) });
      await expect(call).rejects.toMatchObject({ name: 'TimeoutError' });
    });

    it("'http500', 'http401' and 'malformed' answer like a broken CRM", async () => {
      emulator.injectFault({ kind: 'http500', times: 1 });
      emulator.injectFault({ kind: 'http401', times: 1 });
      emulator.injectFault({ kind: 'malformed', times: 1 });
      expect((await api4('Contact', 'get', samplePerson)).status).toBe(500);
      expect((await api4('Contact', 'get', samplePerson)).status).toBe(401);
      const malformed = await api4('Contact', 'get', samplePerson);
      expect(malformed.status).toBe(200);
      await expect(malformed.clone().json()).rejects.toThrow();
      expect((await api4('Contact', 'get', samplePerson)).status).toBe(200);
    });

    it('restricts a fault to one entity and action', async () => {
      const activities = emulator.model.count('Activity');
      emulator.injectFault({ kind: 'http500', entity: 'Activity', action: 'create' });
      expect((await api4('Contact', 'get', samplePerson)).status).toBe(200);
      const create = await api4('Activity', 'create', { values: { source_contact_id: PERSON_ID } });
      expect(create.status).toBe(500);
      // A crashed CRM answers PHP's error page, not CiviCRM's envelope.
      expect(create.headers.get('content-type')).toContain('text/html');
      expect(emulator.model.count('Activity')).toBe(activities);
    });

    it("'v3error' fails v3 calls only", async () => {
      emulator.injectFault({ kind: 'v3error' });
      expect((await api4('Contact', 'get', samplePerson)).status).toBe(200);
      const response = await api3({ entity: 'Attachment', action: 'get', json: JSON.stringify({ id: 1 }) });
      expect(await response.json()).toEqual({ is_error: 1, error_message: 'Injected fault' });
    });

    it('clears faults', async () => {
      emulator.injectFault({ kind: 'http500' });
      emulator.clearFaults();
      expect((await api4('Contact', 'get', samplePerson)).status).toBe(200);
    });

    it('delays every answer by the configured latency', async () => {
      emulator.setLatency(60);
      const started = performance.now();
      await api4('Contact', 'get', samplePerson, { headers: {} });
      expect(performance.now() - started).toBeGreaterThanOrEqual(50);
    });
  });

  describe('reset', () => {
    it('reseeds the model and clears calls, faults and latency', async () => {
      await api4('Contact', 'update', {
        values: { first_name: 'Changed' },
        where: [['id', '=', PERSON_ID]],
      });
      emulator.injectFault({ kind: 'http500' });
      emulator.reset();
      expect(emulator.calls).toEqual([]);
      const response = await api4('Contact', 'get', samplePerson);
      expect((await envelope(response)).values[0]?.['first_name']).toBe('Marisol');
    });
  });

  it('stops even while a slow answer is pending', async () => {
    const other = await CiviCrmEmulator.start({ apiKey: API_KEY, createModel: createSampleModel });
    other.injectFault({ kind: 'slow', delayMs: 60_000 });
    const pending = fetch(`${other.baseUrl}/civicrm/ajax/api4/Contact/get`, { headers: HEADERS });
    pending.catch(() => undefined);
    // Wait for the request to arrive (a condition, not a fixed sleep).
    while (other.calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await other.stop();
    await expect(pending).rejects.toThrow();
  });
});

describe('emulator command line', () => {
  it('defaults to port 8089 and the default key', () => {
    expect(parseEmulatorArgs([])).toEqual({
      port: 8089,
      apiKey: DEFAULT_EMULATOR_API_KEY,
      latencyMs: 0,
      recordLimit: 1_000,
      civicrmVersion: '6.14',
      extensionInstalled: true,
      timeZone: 'UTC',
    });
  });

  it('reads the CiviCRM version, the extension and the time zone to imitate', () => {
    expect(
      parseEmulatorArgs(['--civicrm-version', '5.81', '--extension=no', '--timezone', 'America/Chicago']),
    ).toMatchObject({ civicrmVersion: '5.81', extensionInstalled: false, timeZone: 'America/Chicago' });
    expect(() => parseEmulatorArgs(['--civicrm-version', '5.80'])).toThrow(/civicrm-version/);
    expect(() => parseEmulatorArgs(['--extension', 'maybe'])).toThrow(/extension/);
    expect(() => parseEmulatorArgs(['--timezone', 'Mars/Olympus'])).toThrow(/timezone/);
  });

  it('reads one more API user with its permissions', () => {
    expect(
      parseEmulatorArgs(['--api-user', 'form-key=authenticate with api key, access CiviCRM']),
    ).toMatchObject({
      apiUsers: { 'form-key': { permissions: ['authenticate with api key', 'access CiviCRM'] } },
    });
    expect(() => parseEmulatorArgs(['--api-user', 'form-key'])).toThrow(/api-user/);
  });

  it('reads --port, --api-key and --site-key in both spellings', () => {
    expect(parseEmulatorArgs(['--port', '9000', '--api-key=k', '--site-key', 's'])).toEqual({
      port: 9000,
      apiKey: 'k',
      siteKey: 's',
      latencyMs: 0,
      recordLimit: 1_000,
      civicrmVersion: '6.14',
      extensionInstalled: true,
      timeZone: 'UTC',
    });
  });

  it('refuses unknown options and bad ports', () => {
    expect(() => parseEmulatorArgs(['--nope', '1'])).toThrow(/Unknown option/);
    expect(() => parseEmulatorArgs(['--port', 'x'])).toThrow(/port/);
  });
});
