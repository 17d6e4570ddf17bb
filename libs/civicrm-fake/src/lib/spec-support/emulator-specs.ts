import { CiviCrmEmulator } from '../../emulator';
import { PERSON_ID, createSampleModel } from './sample-site';

/** What the HTTP emulator's specs (emulator/civicrm-emulator*.spec.ts) share. */

export const API_KEY = 'spec-api-key';
export const HEADERS = { 'X-Civi-Auth': `Bearer ${API_KEY}`, 'X-Requested-With': 'XMLHttpRequest' };
/** What a browser's CRM.api4() sends without a session: no credential at all. */
export const ANONYMOUS = { 'X-Requested-With': 'XMLHttpRequest' };

export type Row = Record<string, unknown>;
/** The APIv4 envelope (or a batch call's result) as these tests read it. */
export interface Envelope {
  values: Row[];
  count: number;
  status?: number;
}

export async function envelope(response: Response): Promise<Envelope> {
  return (await response.json()) as Envelope;
}

export interface CallOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export const samplePerson = { select: ['first_name'], where: [['id', '=', PERSON_ID]] };

/**
 * One emulator on the sample site for a spec file, started before its tests, reset before each
 * (so no test sees another's writes, faults or latency) and stopped after them.
 */
export function sampleEmulatorPerFile() {
  let started: CiviCrmEmulator | undefined;
  beforeAll(async () => {
    started = await CiviCrmEmulator.start({ apiKey: API_KEY, createModel: createSampleModel });
  });
  afterAll(() => started?.stop());
  beforeEach(() => started?.reset());

  const site = {
    get emulator(): CiviCrmEmulator {
      if (!started) throw new Error('the emulator starts in beforeAll');
      return started;
    },
    /** An APIv4 call the way the live client sends it: GET with a query, POST with a form. */
    api4(entity: string, action: string, params?: unknown, options: CallOptions = {}): Promise<Response> {
      const method = options.method ?? (action.startsWith('get') ? 'GET' : 'POST');
      const form = new URLSearchParams(params === undefined ? {} : { params: JSON.stringify(params) });
      const url = `${site.emulator.baseUrl}/civicrm/ajax/api4/${entity}/${action}`;
      const headers = options.headers ?? HEADERS;
      const signal = options.signal ? { signal: options.signal } : {};
      return method === 'GET'
        ? fetch(`${url}?${form.toString()}`, { headers, ...signal })
        : fetch(url, { method, headers, body: form, ...signal });
    },
    /** An APIv3 call (civicrm/ajax/rest), as the service sends it: a form POST. */
    api3(fields: Record<string, string>, headers: Record<string, string> = HEADERS): Promise<Response> {
      return fetch(`${site.emulator.baseUrl}/civicrm/ajax/rest`, {
        method: 'POST',
        headers,
        body: new URLSearchParams(fields),
      });
    },
  };
  return site;
}
