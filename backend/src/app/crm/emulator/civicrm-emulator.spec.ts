import { ACTIVITY_TYPE_NAME } from '../crm-names';
import { DEMO_CHECKSUM, DEMO_ORG_ID, DEMO_PERSON_ID } from '../in-memory/demo-data';
import { CiviCrmEmulator, DEFAULT_EMULATOR_API_KEY } from './civicrm-emulator';
import { parseEmulatorArgs } from './emulator.main';

const API_KEY = 'spec-api-key';
const HEADERS = { 'X-Civi-Auth': `Bearer ${API_KEY}`, 'X-Requested-With': 'XMLHttpRequest' };

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
    emulator = await CiviCrmEmulator.start({ apiKey: API_KEY });
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

  const demoPerson = { select: ['first_name'], where: [['id', '=', DEMO_PERSON_ID]] };

  describe('APIv4', () => {
    it('answers a get by GET with the APIv4 envelope', async () => {
      const response = await api4('Contact', 'get', demoPerson);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual({
        values: [{ id: DEMO_PERSON_ID, first_name: 'Marisol' }],
        entity: 'Contact',
        action: 'get',
        debug: null,
        version: 4,
        count: 1,
        countFetched: 1,
      });
    });

    it('reads params from a POSTed form as well', async () => {
      const response = await api4('Contact', 'get', demoPerson, { method: 'POST' });
      expect((await envelope(response)).values).toEqual([{ id: DEMO_PERSON_ID, first_name: 'Marisol' }]);
    });

    it('reads params from a multipart form', async () => {
      const body = new FormData();
      body.set('params', JSON.stringify(demoPerson));
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
        body: JSON.stringify({ params: demoPerson }),
      });
      const body = await envelope(response);
      expect(body.count).toBeGreaterThan(1);
      expect(emulator.calls.at(-1)?.params).toEqual({});
    });

    it('creates records by POST', async () => {
      const response = await api4('Activity', 'create', {
        values: {
          'activity_type_id:name': ACTIVITY_TYPE_NAME,
          source_contact_id: DEMO_PERSON_ID,
          target_contact_id: [DEMO_ORG_ID],
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
        { contactId: DEMO_PERSON_ID, checksum: DEMO_CHECKSUM },
        { method: 'GET' },
      );
      expect(response.status).toBe(405);
      expect(await response.json()).toMatchObject({ status: 405 });
    });

    it('answers CiviCRM errors as 500 JSON', async () => {
      const response = await api4('Contact', 'get', { where: [['nope', '=', 1]] });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({
        error_code: 0,
        error_message: expect.stringContaining('nope'),
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
        contactId: DEMO_PERSON_ID,
        checksum: DEMO_CHECKSUM,
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
        person: ['Contact', 'get', demoPerson, 0],
        check: ['Contact', 'validateChecksum', { contactId: DEMO_PERSON_ID, checksum: 'wrong' }],
        broken: ['Contact', 'get', { where: [['nope', '=', 1]] }],
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as Record<string, Envelope>;
      expect(body['person']).toMatchObject({
        values: { id: DEMO_PERSON_ID, first_name: 'Marisol' },
        count: 1,
      });
      expect(body['check']?.values).toEqual([{ valid: false }]);
      expect(body['broken']).toMatchObject({ status: 500, error_message: expect.any(String) });
      expect(emulator.callsTo('Contact').map((call) => call.batchKey)).toEqual(['person', 'check', 'broken']);
    });

    it('refuses a batch sent by GET, even one of reads, as CiviCRM does (405)', async () => {
      const calls = JSON.stringify({ person: ['Contact', 'get', demoPerson] });
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
      ['without X-Civi-Auth', { 'X-Requested-With': 'XMLHttpRequest' }],
      ['with a wrong key', { ...HEADERS, 'X-Civi-Auth': 'Bearer wrong' }],
      ['without the word Bearer', { ...HEADERS, 'X-Civi-Auth': API_KEY }],
      [
        'with the key in Authorization only',
        { 'X-Requested-With': 'XMLHttpRequest', Authorization: `Bearer ${API_KEY}` },
      ],
    ])('refuses a call %s with 401 text', async (_label, headers) => {
      const response = await api4('Contact', 'get', demoPerson, { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await response.text()).toBe('HTTP 401 Invalid credential');
    });

    it('refuses a call without X-Requested-With with 400', async () => {
      const response = await api4('Contact', 'get', demoPerson, {
        headers: { 'X-Civi-Auth': `Bearer ${API_KEY}` },
      });
      expect(response.status).toBe(400);
    });

    it('records refused calls too', async () => {
      await api4('Contact', 'get', demoPerson, { headers: {} });
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
    const fileId = () => Number(emulator.model.api4('File', 'get', { select: ['id'], limit: 1 })[0]?.['id']);

    it('answers Attachment.get with signed urls that serve the file', async () => {
      const id = fileId();
      const response = await api3({
        entity: 'Attachment',
        action: 'get',
        json: JSON.stringify({ id: { IN: [id] }, return: 'id,url', sequential: 1 }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { values: Array<{ url: string }> };
      expect(body).toMatchObject({
        is_error: 0,
        version: 3,
        count: 1,
        values: [{ id: String(id), url: expect.stringContaining(emulator.baseUrl) }],
      });
      const file = await fetch(body.values[0]?.url ?? '');
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe(emulator.model.getFile(id)?.mime_type);
      expect(Buffer.from(await file.arrayBuffer())).toEqual(emulator.model.getFile(id)?.content);
      expect(emulator.calls).toEqual([
        expect.objectContaining({ version: 3, entity: 'Attachment', action: 'get', status: 200 }),
      ]);
    });

    it('refuses a file address without a valid signature', async () => {
      const response = await fetch(`${emulator.baseUrl}/civicrm/file?reset=1&id=${fileId()}&fcs=forged`);
      expect(response.status).toBe(403);
    });

    it('answers an array-valued return with HTTP 200 and is_error', async () => {
      const response = await api3({
        entity: 'Attachment',
        action: 'get',
        json: JSON.stringify({ id: { IN: [fileId()] }, return: ['id', 'url'] }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        is_error: 1,
        error_message: expect.stringContaining('must be of type string, array given'),
      });
    });

    it('keeps the v3 envelope for a missing X-Requested-With, and the 401 for bad credentials', async () => {
      const fields = { entity: 'Attachment', action: 'get', json: JSON.stringify({ id: fileId() }) };
      const csrf = await api3(fields, { 'X-Civi-Auth': `Bearer ${API_KEY}` });
      expect(csrf.status).toBe(200);
      expect(await csrf.json()).toMatchObject({ is_error: 1 });
      expect((await api3(fields, { 'X-Requested-With': 'XMLHttpRequest' })).status).toBe(401);
    });
  });

  describe('recording', () => {
    it('records version, method, path, entity, action, parsed params, lowercased headers, status and time', async () => {
      const before = Date.now();
      await api4('Contact', 'get', demoPerson);
      expect(emulator.calls).toEqual([
        {
          version: 4,
          method: 'GET',
          path: '/civicrm/ajax/api4/Contact/get',
          entity: 'Contact',
          action: 'get',
          params: demoPerson,
          headers: expect.objectContaining({
            'x-civi-auth': `Bearer ${API_KEY}`,
            'x-requested-with': 'XMLHttpRequest',
          }),
          status: 200,
          at: expect.any(Number),
        },
      ]);
      expect(emulator.calls[0]?.at).toBeGreaterThanOrEqual(before);
    });

    it('lists writes, File.create included, but not checksum calls', async () => {
      await api4('Contact', 'validateChecksum', { contactId: DEMO_PERSON_ID, checksum: DEMO_CHECKSUM });
      await api4('Contact', 'getChecksum', { contactId: DEMO_PERSON_ID, ttl: 1 }, { method: 'POST' });
      await api4('File', 'create', {
        values: { file_name: 'a.pdf', mime_type: 'application/pdf', content: 'JVBERi0=' },
      });
      await api4('Contact', 'update', { values: { first_name: 'M' }, where: [['id', '=', DEMO_PERSON_ID]] });
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
      const limited = await CiviCrmEmulator.start({ apiKey: API_KEY, recordLimit: 2 });
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
      await expect(api4('Contact', 'get', demoPerson)).rejects.toThrow();
      expect(emulator.calls[0]?.status).toBe(0);
    });

    it("'slow' answers only after the delay, so a client timeout fires first", async () => {
      emulator.injectFault({ kind: 'slow', delayMs: 5_000 });
      const call = api4('Contact', 'get', demoPerson, { signal: AbortSignal.timeout(100) });
      await expect(call).rejects.toMatchObject({ name: 'TimeoutError' });
    });

    it("'http500', 'http401' and 'malformed' answer like a broken CRM", async () => {
      emulator.injectFault({ kind: 'http500', times: 1 });
      emulator.injectFault({ kind: 'http401', times: 1 });
      emulator.injectFault({ kind: 'malformed', times: 1 });
      expect((await api4('Contact', 'get', demoPerson)).status).toBe(500);
      expect((await api4('Contact', 'get', demoPerson)).status).toBe(401);
      const malformed = await api4('Contact', 'get', demoPerson);
      expect(malformed.status).toBe(200);
      await expect(malformed.clone().json()).rejects.toThrow();
      expect((await api4('Contact', 'get', demoPerson)).status).toBe(200);
    });

    it('restricts a fault to one entity and action', async () => {
      const activities = emulator.model.count('Activity');
      emulator.injectFault({ kind: 'http500', entity: 'Activity', action: 'create' });
      expect((await api4('Contact', 'get', demoPerson)).status).toBe(200);
      const create = await api4('Activity', 'create', { values: { source_contact_id: DEMO_PERSON_ID } });
      expect(create.status).toBe(500);
      expect(await create.json()).toMatchObject({ error_message: expect.stringContaining('Injected') });
      expect(emulator.model.count('Activity')).toBe(activities);
    });

    it("'v3error' fails v3 calls only", async () => {
      emulator.injectFault({ kind: 'v3error' });
      expect((await api4('Contact', 'get', demoPerson)).status).toBe(200);
      const response = await api3({ entity: 'Attachment', action: 'get', json: JSON.stringify({ id: 1 }) });
      expect(await response.json()).toEqual({ is_error: 1, error_message: 'Injected fault' });
    });

    it('clears faults', async () => {
      emulator.injectFault({ kind: 'http500' });
      emulator.clearFaults();
      expect((await api4('Contact', 'get', demoPerson)).status).toBe(200);
    });

    it('delays every answer by the configured latency', async () => {
      emulator.setLatency(60);
      const started = performance.now();
      await api4('Contact', 'get', demoPerson, { headers: {} });
      expect(performance.now() - started).toBeGreaterThanOrEqual(50);
    });
  });

  describe('reset', () => {
    it('reseeds the model and clears calls, faults and latency', async () => {
      await api4('Contact', 'update', {
        values: { first_name: 'Changed' },
        where: [['id', '=', DEMO_PERSON_ID]],
      });
      emulator.injectFault({ kind: 'http500' });
      emulator.reset();
      expect(emulator.calls).toEqual([]);
      const response = await api4('Contact', 'get', demoPerson);
      expect((await envelope(response)).values[0]?.['first_name']).toBe('Marisol');
    });
  });

  it('stops even while a slow answer is pending', async () => {
    const other = await CiviCrmEmulator.start({ apiKey: API_KEY });
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
    });
  });

  it('reads --port, --api-key and --site-key in both spellings', () => {
    expect(parseEmulatorArgs(['--port', '9000', '--api-key=k', '--site-key', 's'])).toEqual({
      port: 9000,
      apiKey: 'k',
      siteKey: 's',
      latencyMs: 0,
      recordLimit: 1_000,
    });
  });

  it('refuses unknown options and bad ports', () => {
    expect(() => parseEmulatorArgs(['--nope', '1'])).toThrow(/Unknown option/);
    expect(() => parseEmulatorArgs(['--port', 'x'])).toThrow(/port/);
  });
});
