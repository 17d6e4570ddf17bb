import { HttpEventType, provideHttpClient, withInterceptors } from '@angular/common/http';
import {
  HttpTestingController,
  provideHttpClientTesting,
  type TestRequest,
} from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { provideRouter } from '@angular/router';
import type { FormDataPayload, SubmitRequest } from '@checkin/contract';
import { apiErrorInterceptor } from '../core/api-error.interceptor';
import { DRAFT_STORAGE, draftKey } from './draft-store';
import { englishCount } from './field-control';
import { FormPage } from './form-page';
import { formPayload } from './testing/form-payload.fixture';

const DEMO_LINK = '?contactId=102&orgId=101&cid=102&cs=demo';
const KEY = draftKey(102, 101);

interface Page {
  fixture: ComponentFixture<FormPage>;
  http: HttpTestingController;
  root: HTMLElement;
  storage: Storage;
}

let opened: Page | null = null;

async function openPage(search = DEMO_LINK, storage: Storage = window.localStorage): Promise<Page> {
  window.history.replaceState({}, '', `/${search}`);
  TestBed.configureTestingModule({
    providers: [
      provideHttpClient(withInterceptors([apiErrorInterceptor])),
      provideHttpClientTesting(),
      provideRouter([]),
      { provide: DRAFT_STORAGE, useValue: storage },
    ],
  });
  const fixture = TestBed.createComponent(FormPage);
  fixture.detectChanges();
  opened = { fixture, http: TestBed.inject(HttpTestingController), root: fixture.nativeElement, storage };
  return opened;
}

async function loaded(payload: FormDataPayload = formPayload(3), search = DEMO_LINK): Promise<Page> {
  const page = await openPage(search);
  page.http.expectOne((request) => request.url === '/api/data').flush(payload);
  await page.fixture.whenStable();
  return page;
}

function byId<T extends HTMLElement = HTMLInputElement>(page: Page, id: string): T {
  const element = page.root.querySelector<T>(`#${id}`);
  if (!element) throw new Error(`#${id} is not on the page`);
  return element;
}

function button(page: Page, name: string): HTMLButtonElement {
  const found = Array.from(page.root.querySelectorAll('button')).find((candidate) =>
    candidate.textContent?.replace(/\s+/g, ' ').trim().startsWith(name),
  );
  if (!found) throw new Error(`no button "${name}"`);
  return found;
}

function headings(page: Page): string[] {
  return Array.from(page.root.querySelectorAll('h2')).map(
    (heading) => heading.textContent?.replace(/\s+/g, ' ').trim() ?? '',
  );
}

async function type(page: Page, id: string, text: string): Promise<void> {
  const input = byId(page, id);
  input.value = text;
  input.dispatchEvent(new Event('input'));
  input.dispatchEvent(new Event('blur'));
  await page.fixture.whenStable();
}

async function click(page: Page, element: HTMLElement): Promise<void> {
  element.click();
  await page.fixture.whenStable();
}

/** The form's own submit: it opens the review when the answers are valid, and sends nothing. */
async function review(page: Page): Promise<void> {
  page.root.querySelector('form')?.dispatchEvent(new Event('submit'));
  await page.fixture.whenStable();
}

/** Review, then Send from the review when it opened (an invalid form stays on its errors). */
async function submit(page: Page): Promise<void> {
  await review(page);
  const send = page.root.querySelector<HTMLButtonElement>('app-check-in-review .actions button');
  if (send) await click(page, send);
}

function expectSubmit(page: Page): TestRequest {
  return page.http.expectOne('/api/submit');
}

afterEach(() => {
  // The organizer's contact line is read once per page; its answer is not what these tests check.
  opened?.http.match('/api/organizer').forEach((request) => request.flush({ name: null, email: null }));
  opened?.http.verify();
  opened = null;
  window.localStorage.clear();
});

describe('FormPage: loading', () => {
  it('explains an incomplete link and calls no API', async () => {
    const page = await openPage('?contactId=102&orgId=101');
    page.http.expectNone('/api/data');
    expect(page.root.textContent).toContain('This link is incomplete');
  });

  it('shows a loading state while the form data loads', async () => {
    const page = await openPage();
    expect(page.root.querySelector('[role="status"]')?.textContent).toContain('Loading your check-in form');
    page.http.expectOne((request) => request.url === '/api/data').flush(formPayload());
  });

  it('says an expired link must be replaced, without a retry', async () => {
    const page = await openPage();
    page.http
      .expectOne((request) => request.url === '/api/data')
      .flush(
        { statusCode: 401, code: 'CHECKSUM_INVALID', message: 'This link is not valid or has expired.' },
        { status: 401, statusText: 'Unauthorized' },
      );
    await page.fixture.whenStable();
    expect(page.root.querySelector('[role="alert"]')?.textContent).toContain('not valid or has expired');
    expect(page.root.textContent).toContain('ask for a new personal link');
    expect(() => button(page, 'Try again')).toThrow();
  });

  it('offers to try again when the CRM is unavailable', async () => {
    const page = await openPage();
    page.http
      .expectOne((request) => request.url === '/api/data')
      .flush(
        { statusCode: 502, code: 'CRM_UNAVAILABLE', message: 'The CRM could not be reached.' },
        { status: 502, statusText: 'Bad Gateway' },
      );
    await page.fixture.whenStable();
    await click(page, button(page, 'Try again'));
    page.http.expectOne((request) => request.url === '/api/data').flush(formPayload());
    await page.fixture.whenStable();
    expect(headings(page)).toContain('Your co-op');
  });
});

describe('FormPage: sections by stage (docs/decisions.md, "Sections")', () => {
  it('shows identity and the stage read-only, the current stage open and earlier ones folded', async () => {
    const page = await loaded(formPayload(3));
    expect(page.root.querySelector('h1')?.textContent).toContain('Riverbend Food Co-op');
    const facts = Array.from(page.root.querySelectorAll('dl > div')).map((fact) => [
      fact.querySelector('dt')?.textContent?.trim(),
      fact.querySelector('dd')?.textContent?.trim(),
    ]);
    expect(facts).toEqual([
      ['First name', 'Marisol'],
      ['Last name', 'Vance'],
      ['Email', 'marisol.vance@example.org'],
      ['Current stage', 'Business planning'],
    ]);
    expect(page.root.querySelector('input#field-first_name')).toBeNull();

    expect(headings(page)).toEqual([
      'Your co-op',
      'Business planning, Current stage',
      'Feasibility, Earlier stage',
      'Organizing, Earlier stage',
    ]);
    expect(button(page, 'Business planning').getAttribute('aria-expanded')).toBe('true');
    expect(button(page, 'Organizing').getAttribute('aria-expanded')).toBe('false');
    expect(byId(page, 'section-1-body').hidden).toBe(true);

    await click(page, button(page, 'Organizing'));
    expect(byId(page, 'section-1-body').hidden).toBe(false);
  });

  it('shows only section 0 at Inquiry', async () => {
    const page = await loaded(formPayload(0));
    expect(headings(page)).toEqual(['Your co-op']);
  });

  it('labels every control and links its help and unit', async () => {
    const page = await loaded(formPayload(4));
    const controls = page.root.querySelectorAll(
      'input:not([type=radio]):not([type=checkbox]), select, textarea',
    );
    expect(controls).toHaveLength(10);
    for (const control of Array.from(controls)) {
      expect(page.root.querySelector(`label[for="${control.id}"]`)).not.toBeNull();
    }
    const percent = byId(page, 'field-Percent_capitalized');
    expect(percent.getAttribute('aria-describedby')).toBe(
      'field-Percent_capitalized-help field-Percent_capitalized-unit',
    );
    expect(percent.getAttribute('inputmode')).toBe('decimal');
    expect(byId(page, 'field-Steering_committee_size').getAttribute('inputmode')).toBe('numeric');
    expect(byId<HTMLTextAreaElement>(page, 'field-Organizing_notes').tagName).toBe('TEXTAREA');
    expect(byId(page, 'field-Business_plan_date').type).toBe('date');
  });
});

describe('FormPage: validation', () => {
  it('refuses an invalid submit with a summary that links to each field, and sends nothing', async () => {
    const page = await loaded(formPayload(3));
    await type(page, 'field-Steering_committee_size', '101');
    await type(page, 'field-Equity_share', 'a lot');
    await submit(page);

    page.http.expectNone('/api/submit');
    const summary = page.root.querySelector<HTMLElement>('.error-summary');
    expect(summary?.getAttribute('role')).toBe('alert');
    expect(document.activeElement).toBe(summary);
    const links = Array.from(summary?.querySelectorAll('a') ?? []).map((link) => [
      link.getAttribute('href'),
      link.textContent?.trim(),
    ]);
    expect(links).toEqual([
      ['#field-Equity_share', 'Equity share price: Enter a number, like 1250.'],
      ['#field-Steering_committee_size', 'Steering committee size: Enter 100 or less.'],
    ]);

    const size = byId(page, 'field-Steering_committee_size');
    expect(size.getAttribute('aria-invalid')).toBe('true');
    expect(size.getAttribute('aria-describedby')).toContain('field-Steering_committee_size-error');
    expect(byId(page, 'section-1-body').hidden).toBe(false);

    await click(page, summary!.querySelectorAll('a')[1] as HTMLElement);
    expect(document.activeElement).toBe(size);
  });

  it('puts the server’s field errors back on the fields', async () => {
    const page = await loaded(formPayload(3));
    await submit(page);
    expectSubmit(page).flush(
      {
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: 'Some answers are not valid.',
        fields: ['Equity_share'],
      },
      { status: 400, statusText: 'Bad Request' },
    );
    await page.fixture.whenStable();
    expect(page.root.querySelector('.error-summary')?.textContent).toContain(
      'Equity share price: This answer was not accepted',
    );
    expect(byId(page, 'field-Equity_share').getAttribute('aria-invalid')).toBe('true');
  });
});

describe('FormPage: submit', () => {
  it('sends the editable answers, clears the draft, and confirms with a link to the report', async () => {
    const page = await loaded(formPayload(3));
    await type(page, 'field-Equity_share', '250');
    expect(page.storage.getItem(KEY)).toContain('"Equity_share":"250"');
    expect(page.root.querySelector('.draft-status')?.textContent).toMatch(
      /^Draft saved \d{1,2}:\d\d(\s[AP]M)?$/,
    );

    await submit(page);
    const request = expectSubmit(page);
    const body = request.request.body as SubmitRequest;
    expect(body).toEqual(expect.objectContaining({ cid: '102', cs: 'demo', contactId: '102', orgId: '101' }));
    expect(body.submissionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // Only what changed: the prefilled certificate and the rest stay as they are in the CRM.
    expect(body.values).toEqual({ Equity_share: 250 });
    expect(page.storage.getItem(KEY)).not.toBeNull();

    request.flush(
      { activityId: 901, submittedAt: '2026-11-21T12:05:00Z' },
      { status: 201, statusText: 'Created' },
    );
    await page.fixture.whenStable();
    expect(page.storage.getItem(KEY)).toBeNull();
    const heading = page.root.querySelector('#confirmation-title');
    expect(heading?.textContent).toContain('Check-in recorded');
    expect(page.root.textContent).toContain('Your reference CI-901');
    expect(document.activeElement).toBe(heading);
    expect(page.root.querySelector('a[href^="/report"]')?.getAttribute('href')).toBe(`/report${DEMO_LINK}`);

    await click(page, button(page, 'Start another check-in'));
    page.http.expectOne((candidate) => candidate.url === '/api/data').flush(formPayload(3));
    await page.fixture.whenStable();
    expect(document.activeElement).toBe(page.root.querySelector('h1'));
    expect(headings(page)).toContain('Your co-op');
  });

  it('lets a Yes/No question go back to not answered', async () => {
    const page = await loaded(formPayload(1));
    const notAnswered = page.root.querySelectorAll<HTMLInputElement>(
      'input[name="field-Mission_statement_adopted"]',
    )[2];
    expect(byId(page, 'field-Mission_statement_adopted').checked).toBe(true);
    await click(page, notAnswered!);
    await submit(page);
    const request = expectSubmit(page);
    expect((request.request.body as SubmitRequest).values['Mission_statement_adopted']).toBeNull();
    request.flush({ activityId: 905, submittedAt: '2026-11-21T12:09:00Z' });
  });

  it('refuses to send while an upload is in flight', async () => {
    const page = await loaded(formPayload(3));
    const input = byId(page, 'field-Feasibility_study');
    Object.defineProperty(input, 'files', {
      value: [new File(['%PDF-1.4'], 'study.pdf', { type: 'application/pdf' })],
    });
    input.dispatchEvent(new Event('change'));
    await page.fixture.whenStable();
    await submit(page);
    page.http.expectNone('/api/submit');
    page.http.expectOne('/api/upload').flush({ id: 41, file_name: 'study.pdf' });
  });

  it('keeps the draft when the check-in was not saved, says what to do, and retries with the same id', async () => {
    const page = await loaded(formPayload(3));
    await type(page, 'field-Equity_share', '250');
    await submit(page);
    const first = expectSubmit(page);
    first.flush(
      { statusCode: 502, code: 'ACTIVITY_NOT_SAVED', message: 'The check-in was not saved.' },
      { status: 502, statusText: 'Bad Gateway' },
    );
    await page.fixture.whenStable();
    const failure = page.root.querySelector<HTMLElement>('app-check-in-review [role="alert"]');
    expect(failure?.textContent).toContain('Your answers are kept as a draft on this device');
    expect(failure?.textContent).toContain('Send the check-in again');
    expect(document.activeElement).toBe(failure);
    expect(page.storage.getItem(KEY)).toContain('"Equity_share":"250"');

    await click(page, button(page, 'Send check-in'));
    const retry = expectSubmit(page);
    expect((retry.request.body as SubmitRequest).submissionId).toBe(
      (first.request.body as SubmitRequest).submissionId,
    );
    retry.flush({ activityId: 902, submittedAt: '2026-11-21T12:06:00Z' });
  });
});

describe('FormPage: review before sending', () => {
  it('never sends on Enter in a one-line field', async () => {
    const page = await loaded(formPayload(3));
    const equity = byId(page, 'field-Equity_share');
    const enter = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    equity.dispatchEvent(enter);
    await page.fixture.whenStable();
    expect(enter.defaultPrevented).toBe(true);
    page.http.expectNone('/api/submit');

    // Enter on a file picker still opens the system dialog.
    const picker = byId(page, 'field-Feasibility_study');
    const pickerEnter = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    picker.dispatchEvent(pickerEnter);
    expect(pickerEnter.defaultPrevented).toBe(false);
  });

  it('lists the changes, old and new, and goes back to a field to change it', async () => {
    const page = await loaded(formPayload(3));
    await type(page, 'field-Equity_share', '250');
    await click(page, button(page, 'Remove'));
    await review(page);
    page.http.expectNone('/api/submit');
    const rows = Array.from(page.root.querySelectorAll('app-check-in-review .row')).map((row) =>
      row.textContent?.replace(/\s+/g, ' ').trim(),
    );
    expect(rows).toEqual([
      'Certificate of incorporation Your co-opWill be removedWas: certificate.pdf Change Certificate of incorporation',
      'Equity share price Your co-op$250.00Was: $200.00 Change Equity share price',
    ]);
    expect(document.activeElement?.id).toBe('review-title');

    await click(page, button(page, 'Change'));
    await page.fixture.whenStable();
    expect(page.root.querySelector('app-check-in-review')).toBeNull();
    expect(document.activeElement?.id).toBe('field-Certificate_of_Incorporation');
  });
});

describe('FormPage: character count', () => {
  it('groups a count the English way, as its sentence is English', () => {
    expect([0, 7, 255, 1968, 12345, 1000000].map(englishCount)).toEqual([
      '0',
      '7',
      '255',
      '1,968',
      '12,345',
      '1,000,000',
    ]);
  });

  it('counts the characters left as they are typed, and says it to screen readers once typing pauses', async () => {
    const page = await loaded(formPayload(3));
    const count = () =>
      byId<HTMLElement>(page, 'field-Name_on_Incorporation_Certificate-count').textContent?.trim();
    const live = () =>
      page.root
        .querySelector('#field-Name_on_Incorporation_Certificate-group [aria-live]')
        ?.textContent?.trim();
    expect(count()).toBe('You have 223 characters remaining');
    expect(live()).toBe('');

    await type(page, 'field-Name_on_Incorporation_Certificate', 'x'.repeat(256));
    expect(count()).toBe('You have 1 character too many');
    expect(live()).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await page.fixture.whenStable();
    expect(live()).toBe('You have 1 character too many');
  });
});

describe('FormPage: draft (docs/decisions.md, "Drafts")', () => {
  function storeDraft(values: Record<string, unknown>): void {
    window.localStorage.setItem(KEY, JSON.stringify({ savedAt: '2026-11-21T09:05:00Z', values }));
  }

  it('offers to restore a draft from an earlier visit, never taking identity from it', async () => {
    storeDraft({ Equity_share: '999', first_name: 'Mallory' });
    const page = await loaded(formPayload(3));
    expect(page.root.textContent).toContain('You have an unsent draft');
    expect(byId(page, 'field-Equity_share').value).toBe('200');

    await click(page, button(page, 'Restore draft'));
    expect(byId(page, 'field-Equity_share').value).toBe('999');
    expect(page.root.querySelector('dl')?.textContent).toContain('Marisol');
    expect(page.root.textContent).not.toContain('Mallory');
    expect(page.root.textContent).not.toContain('You have an unsent draft');
  });

  it('discards a draft on request', async () => {
    storeDraft({ Equity_share: '999' });
    const page = await loaded(formPayload(3));
    await click(page, button(page, 'Discard draft'));
    expect(window.localStorage.getItem(KEY)).toBeNull();
    expect(byId(page, 'field-Equity_share').value).toBe('200');
  });

  it('offers nothing when the draft matches what is on record', async () => {
    storeDraft({ Equity_share: '200' });
    const page = await loaded(formPayload(3));
    expect(page.root.textContent).not.toContain('You have an unsent draft');
  });
});

describe('FormPage: file fields', () => {
  async function pick(page: Page, id: string, file: File): Promise<void> {
    const input = byId(page, id);
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    input.dispatchEvent(new Event('change'));
    await page.fixture.whenStable();
  }

  const study = new File(['%PDF-1.4'], 'study.pdf', { type: 'application/pdf' });

  it('uploads a picked file at once with progress, and holds submit until it is stored', async () => {
    const page = await loaded(formPayload(3));
    await pick(page, 'field-Feasibility_study', study);

    const upload = page.http.expectOne('/api/upload');
    expect((upload.request.body as FormData).get('fieldRef')).toBe('Feasibility_study');
    expect(page.root.textContent).toContain('Uploading study.pdf');
    const send = button(page, 'Review and send');
    expect(send.disabled).toBe(true);
    expect(send.getAttribute('aria-describedby')).toBe('submit-reason');
    expect(byId(page, 'submit-reason').textContent).toContain('Wait for the file upload to finish');

    upload.event({ type: HttpEventType.UploadProgress, loaded: 4, total: 8 });
    await page.fixture.whenStable();
    expect(page.root.querySelector('progress')?.getAttribute('value')).toBe('50');

    upload.flush({ id: 41, file_name: 'study.pdf' });
    await page.fixture.whenStable();
    expect(byId(page, 'field-Feasibility_study-group').textContent?.replace(/\s+/g, ' ')).toContain(
      'Stored file: study.pdf',
    );
    expect(send.disabled).toBe(false);
    expect(page.storage.getItem(KEY)).toContain('"Feasibility_study":{"id":41,"file_name":"study.pdf"}');

    await submit(page);
    const request = expectSubmit(page);
    expect((request.request.body as SubmitRequest).values['Feasibility_study']).toEqual({
      id: 41,
      file_name: 'study.pdf',
    });
    request.flush({ activityId: 903, submittedAt: '2026-11-21T12:07:00Z' });
  });

  it('refuses a file of the wrong type before uploading, at the field', async () => {
    const page = await loaded(formPayload(3));
    await pick(
      page,
      'field-Feasibility_study',
      new File(['MZ'], 'tool.exe', { type: 'application/x-msdownload' }),
    );
    page.http.expectNone('/api/upload');
    const input = byId(page, 'field-Feasibility_study');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(byId(page, 'field-Feasibility_study-upload-error').textContent).toContain('not a type of file');
  });

  it('shows the server’s refusal at the field', async () => {
    const page = await loaded(formPayload(3));
    await pick(page, 'field-Feasibility_study', study);
    page.http.expectOne('/api/upload').flush(
      {
        statusCode: 415,
        code: 'FILE_CONTENT_MISMATCH',
        message: 'The file’s content does not match its type.',
      },
      { status: 415, statusText: 'Unsupported Media Type' },
    );
    await page.fixture.whenStable();
    expect(byId(page, 'field-Feasibility_study-upload-error').textContent).toContain(
      'study.pdf was not uploaded. The file’s content does not match its type.',
    );
    expect(button(page, 'Review and send').disabled).toBe(false);
  });

  it('removes a stored file with its button', async () => {
    const page = await loaded(formPayload(3));
    await click(page, button(page, 'Remove'));
    expect(byId(page, 'field-Certificate_of_Incorporation').hidden).toBe(false);
    await submit(page);
    const request = expectSubmit(page);
    expect((request.request.body as SubmitRequest).values['Certificate_of_Incorporation']).toBeNull();
    request.flush({ activityId: 904, submittedAt: '2026-11-21T12:08:00Z' });
  });
});
