import { HttpEventType, provideHttpClient, withInterceptors } from '@angular/common/http';
import { HttpTestingController, provideHttpClientTesting } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { ApiError, apiErrorInterceptor } from '../core/api-error.interceptor';
import { FormApi, type UploadEvent } from './form-api';
import { LINK } from './testing/form-payload.fixture';

function setUp() {
  TestBed.configureTestingModule({
    providers: [provideHttpClient(withInterceptors([apiErrorInterceptor])), provideHttpClientTesting()],
  });
  return { api: TestBed.inject(FormApi), http: TestBed.inject(HttpTestingController) };
}

const pdf = new File(['%PDF-1.4'], 'plan.pdf', { type: 'application/pdf' });

describe('FormApi', () => {
  afterEach(() => TestBed.inject(HttpTestingController).verify());

  it('loads the form data with the link’s parameters', () => {
    const { api, http } = setUp();
    api.loadData(LINK).subscribe();
    const request = http.expectOne((candidate) => candidate.url === '/api/data');
    expect(request.request.method).toBe('GET');
    expect(request.request.urlWithParams).toBe('/api/data?contactId=102&orgId=101&cid=102&cs=demo');
    request.flush({});
  });

  it('posts the submission as JSON', () => {
    const { api, http } = setUp();
    const body = { ...LINK, submissionId: 'id-1', values: { Equity_share: 250 } };
    api.submit(body).subscribe();
    const request = http.expectOne('/api/submit');
    expect(request.request.method).toBe('POST');
    expect(request.request.body).toEqual(body);
    request.flush({ activityId: 5, submittedAt: '2026-11-21T12:00:00Z' });
  });

  it('uploads the text parts before the file, and reports progress then the stored file', () => {
    const { api, http } = setUp();
    const events: UploadEvent[] = [];
    api
      .upload({ link: LINK, contactId: '102', orgId: '101', fieldRef: 'Business_plan', file: pdf })
      .subscribe((event) => events.push(event));
    const request = http.expectOne('/api/upload');
    expect(request.request.reportProgress).toBe(true);
    const body = request.request.body as FormData;
    const parts: string[] = [];
    body.forEach((_value, name) => parts.push(name));
    expect(parts).toEqual(['cid', 'cs', 'contactId', 'orgId', 'fieldRef', 'file']);
    expect(body.get('fieldRef')).toBe('Business_plan');
    expect((body.get('file') as File).name).toBe('plan.pdf');

    request.event({ type: HttpEventType.UploadProgress, loaded: 50, total: 200 });
    request.event({ type: HttpEventType.UploadProgress, loaded: 50 });
    request.flush({ id: 41, file_name: 'plan.pdf' });
    expect(events).toEqual([
      { kind: 'progress', fraction: 0.25 },
      { kind: 'progress', fraction: null },
      { kind: 'done', file: { id: 41, file_name: 'plan.pdf' } },
    ]);
  });

  it('turns an upload refusal into the API’s error', () => {
    const { api, http } = setUp();
    let failure: unknown;
    api
      .upload({ link: LINK, contactId: '102', orgId: '101', fieldRef: 'Business_plan', file: pdf })
      .subscribe({ error: (error: unknown) => (failure = error) });
    http
      .expectOne('/api/upload')
      .flush(
        { statusCode: 415, code: 'FILE_CONTENT_MISMATCH', message: 'The file is not what its type says.' },
        { status: 415, statusText: 'Unsupported Media Type' },
      );
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).body.code).toBe('FILE_CONTENT_MISMATCH');
  });

  it('treats an upload answer without a file as unexpected', () => {
    const { api, http } = setUp();
    let failure: unknown;
    api
      .upload({ link: LINK, contactId: '102', orgId: '101', fieldRef: 'Business_plan', file: pdf })
      .subscribe({ error: (error: unknown) => (failure = error) });
    http.expectOne('/api/upload').flush({ ok: true });
    expect((failure as ApiError).body.code).toBe('UNEXPECTED_RESPONSE');
  });
});
