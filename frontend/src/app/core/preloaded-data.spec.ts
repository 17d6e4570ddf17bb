import { makeStateKey, TransferState } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { firstValueFrom } from 'rxjs';
import { ApiError } from './api-error.interceptor';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STAFF_KEY_STORAGE_ITEM } from '@checkin/contract';
import {
  type EarlyRequestHolder,
  PreloadedData,
  SERVER_PAGE_DATA,
  startPageDataRequest,
} from './preloaded-data';

const FORM_SEARCH = '?contactId=7&orgId=9&cid=7&cs=abc_123';
const FORM_DATA_URL = '/api/data?contactId=7&orgId=9&cid=7&cs=abc_123';

function answering(response: Response | Error): jest.Mock<Promise<Response>, Parameters<typeof fetch>> {
  return jest.fn<Promise<Response>, Parameters<typeof fetch>>(() =>
    response instanceof Error ? Promise.reject(response) : Promise.resolve(response),
  );
}

/** jsdom has no fetch Response: the part of one that PreloadedData reads. */
function answer(text: string, status: number): Response {
  let used = false;
  const response: Pick<Response, 'ok' | 'status' | 'text'> = {
    ok: status >= 200 && status < 300,
    status,
    // A body can be read once, as in the browser.
    text: () => {
      if (used) return Promise.reject(new TypeError('body stream already read'));
      used = true;
      return Promise.resolve(text);
    },
  };
  return response as Response;
}

function json(body: unknown, status = 200): Response {
  return answer(JSON.stringify(body), status);
}

describe('PreloadedData', () => {
  let preloaded: PreloadedData;

  beforeEach(() => {
    preloaded = TestBed.inject(PreloadedData);
  });

  it('starts the form data request with the URL the service preloads, same-origin credentials', () => {
    const fetchFn = answering(json({}));
    startPageDataRequest({ pathname: '/', search: FORM_SEARCH }, fetchFn);
    expect(fetchFn).toHaveBeenCalledWith(FORM_DATA_URL, { credentials: 'same-origin' });
  });

  it('starts the report request on /report, nothing elsewhere or without a checksum', () => {
    const fetchFn = answering(json({}));
    startPageDataRequest({ pathname: '/report', search: '?cid=7&cs=a%20b' }, fetchFn);
    startPageDataRequest({ pathname: '/elsewhere', search: '?cid=7&cs=x' }, fetchFn);
    startPageDataRequest({ pathname: '/', search: '?cid=7' }, fetchFn);
    expect(fetchFn.mock.calls.map(([url]) => url)).toEqual(['/api/report?cid=7&cs=a%20b']);
  });

  it('hands the started answer to the first ask for its URL only', async () => {
    startPageDataRequest({ pathname: '/', search: FORM_SEARCH }, answering(json({ sections: [1] })));
    expect(preloaded.take('/api/report?cid=7&cs=abc_123')).toBeNull();
    const answer = preloaded.take(FORM_DATA_URL);
    expect(answer).not.toBeNull();
    expect(preloaded.take(FORM_DATA_URL)).toBeNull();
    await expect(firstValueFrom(answer!)).resolves.toEqual({ sections: [1] });
  });

  it('gives every subscriber the same answer', async () => {
    startPageDataRequest({ pathname: '/', search: FORM_SEARCH }, answering(json({ sections: [2] })));
    const answer = preloaded.take(FORM_DATA_URL)!;
    await expect(firstValueFrom(answer)).resolves.toEqual({ sections: [2] });
    await expect(firstValueFrom(answer)).resolves.toEqual({ sections: [2] });
  });

  it("turns the API's error body into ApiError", async () => {
    const body = { statusCode: 401, code: 'INVALID_CHECKSUM', message: 'This link is not valid.' };
    startPageDataRequest({ pathname: '/', search: FORM_SEARCH }, answering(json(body, 401)));
    const failure = firstValueFrom(preloaded.take(FORM_DATA_URL)!);
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ body });
  });

  it('reports a network failure and a non-JSON answer as HttpClient would', async () => {
    startPageDataRequest({ pathname: '/', search: FORM_SEARCH }, answering(new TypeError('Failed to fetch')));
    await expect(firstValueFrom(preloaded.take(FORM_DATA_URL)!)).rejects.toMatchObject({
      body: { statusCode: 0, code: 'NETWORK_ERROR' },
    });
    startPageDataRequest(
      { pathname: '/', search: FORM_SEARCH },
      answering(answer('<html>Bad gateway</html>', 502)),
    );
    await expect(firstValueFrom(preloaded.take(FORM_DATA_URL)!)).rejects.toMatchObject({
      body: { statusCode: 502, code: 'UNEXPECTED_RESPONSE' },
    });
  });

  describe('the staff page', () => {
    const storage = (key: string | null): Pick<Storage, 'getItem'> => ({ getItem: () => key });

    it('starts the staff report with the key from the address, in a header and never in the URL', () => {
      const fetchFn = answering(json({}));
      startPageDataRequest({ pathname: '/staff', search: '?orgId=%2042&key=s3cret' }, fetchFn, storage(null));
      expect(fetchFn).toHaveBeenCalledWith('/api/staff/report?orgId=42', {
        credentials: 'same-origin',
        headers: { 'X-Staff-Key': 's3cret' },
      });
    });

    it("uses the tab's stored key, and starts nothing without an organization or a key", () => {
      const fetchFn = answering(json({}));
      startPageDataRequest({ pathname: '/staff', search: '?orgId=42' }, fetchFn, storage('stored-key'));
      startPageDataRequest({ pathname: '/staff', search: '?orgId=42' }, fetchFn, storage(null));
      startPageDataRequest({ pathname: '/staff', search: '?key=s3cret' }, fetchFn, storage('stored-key'));
      expect(fetchFn.mock.calls).toEqual([
        [
          '/api/staff/report?orgId=42',
          { credentials: 'same-origin', headers: { 'X-Staff-Key': 'stored-key' } },
        ],
      ]);
    });

    /** Runs the real early-staff-request.js against a stand-in window. */
    function runEarlyScript(
      search: string,
      storedKey: string | null,
      fetchFn: typeof fetch,
    ): EarlyRequestHolder {
      const source = readFileSync(
        join(__dirname, '..', '..', 'page-start', 'early-staff-request.js'),
        'utf8',
      );
      const window = {
        location: { pathname: '/staff', search },
        sessionStorage: { getItem: (item: string) => (item === STAFF_KEY_STORAGE_ITEM ? storedKey : null) },
        fetch: fetchFn,
        requestIdleCallback: (callback: () => void) => idleWork.push(callback),
      };
      new Function('window', source)(window);
      return window as EarlyRequestHolder;
    }
    const idleWork: (() => void)[] = [];

    it('makes the first Intl formatters once the browser is idle, only on a staff page it asks data for', () => {
      idleWork.length = 0;
      runEarlyScript('?orgId=42', null, answering(json({})));
      expect(idleWork).toHaveLength(0);
      runEarlyScript('?orgId=42&key=s3cret', null, answering(json({})));
      expect(idleWork).toHaveLength(1);
      const made = jest.spyOn(Intl, 'DateTimeFormat');
      expect(() => idleWork[0]!()).not.toThrow();
      expect(made).toHaveBeenCalledTimes(1);
      made.mockRestore();
    });

    it("takes over the early script's request: the same URL, header and stored key as its own", async () => {
      const early = answering(json({ early: true }));
      const holder = runEarlyScript('?orgId=%2042&key=s3cret', null, early);
      const fetchFn = answering(json({}));
      startPageDataRequest(
        { pathname: '/staff', search: '?orgId=%2042&key=s3cret' },
        fetchFn,
        storage(null),
        holder,
      );
      expect(early).toHaveBeenCalledWith('/api/staff/report?orgId=42', {
        credentials: 'same-origin',
        headers: { 'X-Staff-Key': 's3cret' },
      });
      expect(fetchFn).not.toHaveBeenCalled();
      await expect(firstValueFrom(preloaded.take('/api/staff/report?orgId=42', 's3cret')!)).resolves.toEqual({
        early: true,
      });

      const fromStorage = answering(json({}));
      const stored = runEarlyScript('?orgId=42', 'stored-key', fromStorage);
      startPageDataRequest(
        { pathname: '/staff', search: '?orgId=42' },
        fetchFn,
        storage('stored-key'),
        stored,
      );
      expect(fromStorage).toHaveBeenCalledWith('/api/staff/report?orgId=42', {
        credentials: 'same-origin',
        headers: { 'X-Staff-Key': 'stored-key' },
      });
      expect(fetchFn).not.toHaveBeenCalled();
    });

    it('makes its own request when the early one was for another key, and takes an early one once', () => {
      const holder = runEarlyScript('?orgId=42&key=old', null, answering(json({})));
      const fetchFn = answering(json({}));
      startPageDataRequest(
        { pathname: '/staff', search: '?orgId=42&key=new' },
        fetchFn,
        storage(null),
        holder,
      );
      expect(fetchFn).toHaveBeenCalledTimes(1);
      const again = runEarlyScript('?orgId=42&key=k', null, answering(json({})));
      startPageDataRequest({ pathname: '/staff', search: '?orgId=42&key=k' }, fetchFn, storage(null), again);
      startPageDataRequest({ pathname: '/staff', search: '?orgId=42&key=k' }, fetchFn, storage(null), again);
      expect(fetchFn).toHaveBeenCalledTimes(2);
    });

    it('hands the answer only to a request with the same key', async () => {
      startPageDataRequest(
        { pathname: '/staff', search: '?orgId=42' },
        answering(json({ ok: 1 })),
        storage('k1'),
      );
      expect(preloaded.take('/api/staff/report?orgId=42', 'other-key')).toBeNull();
      expect(preloaded.take('/api/staff/report?orgId=42')).toBeNull();
      await expect(firstValueFrom(preloaded.take('/api/staff/report?orgId=42', 'k1')!)).resolves.toEqual({
        ok: 1,
      });
    });
  });
});

describe('PreloadedData in a server-rendered page', () => {
  const pageData = { url: FORM_DATA_URL, status: 200, body: { organization: { name: 'Riverbend' } } };

  afterEach(() => TestBed.resetTestingModule());

  it('on the server hands the service’s data to the page and puts it in the page for the browser', async () => {
    TestBed.configureTestingModule({ providers: [{ provide: SERVER_PAGE_DATA, useValue: pageData }] });
    const preloaded = TestBed.inject(PreloadedData);
    expect(preloaded.take('/api/report?cid=7&cs=abc_123')).toBeNull();
    await expect(firstValueFrom(preloaded.take(FORM_DATA_URL)!)).resolves.toEqual(pageData.body);
    expect(JSON.parse(TestBed.inject(TransferState).toJson())).toEqual({ 'checkin.pageData': pageData });
    // Once: a retry asks the API.
    expect(preloaded.take(FORM_DATA_URL)).toBeNull();
  });

  it('in the browser takes the data from the page once, for its URL only, without a request', async () => {
    const fetchFn = answering(json({ never: 'used' }));
    startPageDataRequest({ pathname: '/staff', search: '' }, fetchFn, null);
    TestBed.inject(TransferState).set(makeStateKey<typeof pageData>('checkin.pageData'), pageData);
    const preloaded = TestBed.inject(PreloadedData);
    expect(preloaded.take('/api/data?cid=1&cs=x')).toBeNull();
    await expect(firstValueFrom(preloaded.take(FORM_DATA_URL)!)).resolves.toEqual(pageData.body);
    expect(preloaded.take(FORM_DATA_URL)).toBeNull();
    expect(fetchFn).not.toHaveBeenCalled();
  });

  it('hands the further answers the page carries, each once by its URL, on the server and in the browser', async () => {
    const error = { statusCode: 400, code: 'ORG_REQUIRED', message: 'Choose a co-op.' };
    const choicesUrl = '/api/organizations?cid=7&cs=abc_123';
    const choices = { organizations: [{ id: 9, name: 'Riverbend' }] };
    const withChoices = {
      url: '/api/data?cid=7&cs=abc_123',
      status: 400,
      body: error,
      also: [{ url: choicesUrl, status: 200, body: choices }],
    };
    TestBed.configureTestingModule({ providers: [{ provide: SERVER_PAGE_DATA, useValue: withChoices }] });
    const onServer = TestBed.inject(PreloadedData);
    await expect(firstValueFrom(onServer.take(choicesUrl)!)).resolves.toEqual(choices);
    expect(onServer.take(choicesUrl)).toBeNull();
    await expect(firstValueFrom(onServer.take(withChoices.url)!)).rejects.toBeInstanceOf(ApiError);
    const state = TestBed.inject(TransferState).toJson();
    expect(JSON.parse(state)).toEqual({ 'checkin.pageData': withChoices });

    TestBed.resetTestingModule();
    TestBed.inject(TransferState).set(makeStateKey<typeof withChoices>('checkin.pageData'), withChoices);
    const inBrowser = TestBed.inject(PreloadedData);
    await expect(firstValueFrom(inBrowser.take(choicesUrl)!)).resolves.toEqual(choices);
    expect(inBrowser.take(choicesUrl)).toBeNull();
    await expect(firstValueFrom(inBrowser.take(withChoices.url)!)).rejects.toBeInstanceOf(ApiError);
  });

  it('hands a rendered staff page its data whatever key the tab holds, once, without a request', async () => {
    const staffUrl = '/api/staff/report?orgId=42';
    const staffData = { url: staffUrl, status: 200, body: { organization: { id: 42 } } };
    const fetchFn = answering(json({ never: 'used' }));
    startPageDataRequest({ pathname: '/staff', search: '?orgId=42' }, fetchFn, null);
    TestBed.inject(TransferState).set(makeStateKey<typeof staffData>('checkin.pageData'), staffData);
    const preloaded = TestBed.inject(PreloadedData);
    await expect(firstValueFrom(preloaded.take(staffUrl, 'stored-key')!)).resolves.toEqual(staffData.body);
    expect(preloaded.take(staffUrl, 'stored-key')).toBeNull();
    expect(fetchFn).not.toHaveBeenCalled();
  });

  it('turns an error the service answered into ApiError, as the API request would', async () => {
    const error = { statusCode: 403, code: 'CHECKSUM_INVALID', message: 'This link is not valid.' };
    TestBed.configureTestingModule({
      providers: [{ provide: SERVER_PAGE_DATA, useValue: { url: FORM_DATA_URL, status: 403, body: error } }],
    });
    const failure = await firstValueFrom(TestBed.inject(PreloadedData).take(FORM_DATA_URL)!).catch(
      (caught: unknown) => caught,
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toEqual(expect.objectContaining({ status: 403, body: error }));
  });
});
