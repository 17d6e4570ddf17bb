import { CiviCrmEmulator } from '../../emulator';
import {
  ORG_ID,
  PERSON_ID,
  SAMPLE_ACTIVITY_TYPE,
  SAMPLE_CHECKSUM,
  createSampleModel,
} from '../spec-support/sample-site';
import {
  ANONYMOUS,
  API_KEY,
  envelope,
  type Envelope,
  HEADERS,
  samplePerson,
  sampleEmulatorPerFile,
} from '../spec-support/emulator-specs';

describe('the HTTP emulator: APIv4, its batches and its gates', () => {
  const site = sampleEmulatorPerFile();
  const { api4 } = site;

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
      const response = await fetch(`${site.emulator.baseUrl}/civicrm/ajax/api4/Contact/get`, {
        method: 'POST',
        headers: HEADERS,
        body,
      });
      expect((await envelope(response)).count).toBe(1);
    });

    it('ignores a raw JSON body: the call runs with no params', async () => {
      const response = await fetch(`${site.emulator.baseUrl}/civicrm/ajax/api4/Contact/get`, {
        method: 'POST',
        headers: { ...HEADERS, 'Content-Type': 'application/json' },
        body: JSON.stringify({ params: samplePerson }),
      });
      const body = await envelope(response);
      expect(body.count).toBeGreaterThan(1);
      expect(site.emulator.calls.at(-1)?.params).toEqual({});
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
      const [stored] = site.emulator.model.api4('Activity', 'get', {
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
      const response = await fetch(`${site.emulator.baseUrl}/civicrm/ajax/api4/Contact/get?params=%7Bnope`, {
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
      fetch(`${site.emulator.baseUrl}/civicrm/ajax/api4`, {
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
      expect(site.emulator.callsTo('Contact').map((call) => call.batchKey)).toEqual([
        'person',
        'check',
        'broken',
      ]);
    });

    it('refuses a batch sent by GET, even one of reads, as CiviCRM does (405)', async () => {
      const calls = JSON.stringify({ person: ['Contact', 'get', samplePerson] });
      const response = await fetch(
        `${site.emulator.baseUrl}/civicrm/ajax/api4?${new URLSearchParams({ calls })}`,
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
      expect(site.emulator.calls).toEqual([
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
});
