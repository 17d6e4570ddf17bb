import { CiviCrmEmulator } from '../../emulator';
import { PERSON_ID, SAMPLE_CHECKSUM, createSampleModel } from '../spec-support/sample-site';
import {
  API_KEY,
  envelope,
  HEADERS,
  samplePerson,
  sampleEmulatorPerFile,
} from '../spec-support/emulator-specs';

describe('the HTTP emulator under the specs’ control: recording, faults, latency, reset, stop', () => {
  const site = sampleEmulatorPerFile();
  const { api3, api4 } = site;

  describe('recording', () => {
    it('records version, method, path, entity, action, parsed params, lowercased headers, status, answer size and time', async () => {
      const before = Date.now();
      await api4('Contact', 'get', samplePerson);
      expect(site.emulator.calls).toEqual([
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
      expect(site.emulator.calls[0]?.at).toBeGreaterThanOrEqual(before);
    });

    it('lists writes, File.create included, but not checksum calls', async () => {
      await api4('Contact', 'validateChecksum', { contactId: PERSON_ID, checksum: SAMPLE_CHECKSUM });
      await api4('Contact', 'getChecksum', { contactId: PERSON_ID, ttl: 1 }, { method: 'POST' });
      await api4('File', 'create', {
        values: { file_name: 'a.pdf', mime_type: 'application/pdf', content: 'JVBERi0=' },
      });
      await api4('Contact', 'update', { values: { first_name: 'M' }, where: [['id', '=', PERSON_ID]] });
      expect(site.emulator.writes().map((call) => `${call.entity}.${call.action}`)).toEqual([
        'File.create',
        'Contact.update',
      ]);
      expect(site.emulator.callsTo('Contact', 'validateChecksum')).toHaveLength(1);
      expect(site.emulator.callsTo('Contact')).toHaveLength(3);
      site.emulator.clearCalls();
      expect(site.emulator.calls).toEqual([]);
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
      site.emulator.injectFault({ kind: 'down' });
      await expect(api4('Contact', 'get', samplePerson)).rejects.toThrow();
      expect(site.emulator.calls[0]?.status).toBe(0);
    });

    it("'slow' answers only after the delay, so a client timeout fires first", async () => {
      site.emulator.injectFault({ kind: 'slow', delayMs: 5_000 });
      const call = api4('Contact', 'get', samplePerson, { signal: AbortSignal.timeout(100) });
      await expect(call).rejects.toMatchObject({ name: 'TimeoutError' });
    });

    it("'http500', 'http401' and 'malformed' answer like a broken CRM", async () => {
      site.emulator.injectFault({ kind: 'http500', times: 1 });
      site.emulator.injectFault({ kind: 'http401', times: 1 });
      site.emulator.injectFault({ kind: 'malformed', times: 1 });
      expect((await api4('Contact', 'get', samplePerson)).status).toBe(500);
      expect((await api4('Contact', 'get', samplePerson)).status).toBe(401);
      const malformed = await api4('Contact', 'get', samplePerson);
      expect(malformed.status).toBe(200);
      await expect(malformed.clone().json()).rejects.toThrow();
      expect((await api4('Contact', 'get', samplePerson)).status).toBe(200);
    });

    it('restricts a fault to one entity and action', async () => {
      const activities = site.emulator.model.count('Activity');
      site.emulator.injectFault({ kind: 'http500', entity: 'Activity', action: 'create' });
      expect((await api4('Contact', 'get', samplePerson)).status).toBe(200);
      const create = await api4('Activity', 'create', { values: { source_contact_id: PERSON_ID } });
      expect(create.status).toBe(500);
      // A crashed CRM answers PHP's error page, not CiviCRM's envelope.
      expect(create.headers.get('content-type')).toContain('text/html');
      expect(site.emulator.model.count('Activity')).toBe(activities);
    });

    it("'v3error' fails v3 calls only", async () => {
      site.emulator.injectFault({ kind: 'v3error' });
      expect((await api4('Contact', 'get', samplePerson)).status).toBe(200);
      const response = await api3({ entity: 'Attachment', action: 'get', json: JSON.stringify({ id: 1 }) });
      expect(await response.json()).toEqual({ is_error: 1, error_message: 'Injected fault' });
    });

    it('clears faults', async () => {
      site.emulator.injectFault({ kind: 'http500' });
      site.emulator.clearFaults();
      expect((await api4('Contact', 'get', samplePerson)).status).toBe(200);
    });

    it('delays every answer by the configured latency', async () => {
      site.emulator.setLatency(60);
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
      site.emulator.injectFault({ kind: 'http500' });
      site.emulator.reset();
      expect(site.emulator.calls).toEqual([]);
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
