import type { SubmitRequest } from '@checkin/contract';
import { formPayload } from './testing/form-payload.fixture';
import {
  byId,
  button,
  click,
  closeOpenedPage,
  DEMO_LINK,
  expectSubmit,
  headings,
  KEY,
  loaded,
  review,
  submit,
  type,
} from './testing/form-page-harness';

afterEach(closeOpenedPage);

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
