import { provideHttpClient, withInterceptors } from '@angular/common/http';
import { HttpTestingController, provideHttpClientTesting } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { provideRouter } from '@angular/router';
import type { FormDataPayload, SubmitRequest } from '@checkin/contract';
import { apiErrorInterceptor } from '../core/api-error.interceptor';
import { buildCheckInForm } from './check-in-form';
import { FormPage } from './form-page';
import { formPayload } from './testing/form-payload.fixture';

/**
 * Answers stored before today's rules (or written in CiviCRM by staff): the form shows them,
 * escaped, and never refuses to send because of one the owner did not change
 * (docs/decisions.md, "Owner text is inert").
 */
const DEMO_LINK = '?contactId=102&orgId=101&cid=102&cs=demo';
const OLD_MARKUP = '<b onmouseover="alert(1)">Riverbend</b> &lt;script&gt;';

interface Page {
  fixture: ComponentFixture<FormPage>;
  http: HttpTestingController;
  root: HTMLElement;
}

let opened: Page | null = null;

async function loaded(payload: FormDataPayload): Promise<Page> {
  window.history.replaceState({}, '', `/${DEMO_LINK}`);
  TestBed.configureTestingModule({
    providers: [
      provideHttpClient(withInterceptors([apiErrorInterceptor])),
      provideHttpClientTesting(),
      provideRouter([]),
    ],
  });
  const fixture = TestBed.createComponent(FormPage);
  fixture.detectChanges();
  const http = TestBed.inject(HttpTestingController);
  opened = { fixture, http, root: fixture.nativeElement };
  http.expectOne((request) => request.url === '/api/data').flush(payload);
  await fixture.whenStable();
  return opened;
}

function input(page: Page, id: string): HTMLInputElement {
  const element = page.root.querySelector<HTMLInputElement>(`#${id}`);
  if (!element) throw new Error(`#${id} is not on the page`);
  return element;
}

async function type(page: Page, id: string, text: string): Promise<void> {
  const element = input(page, id);
  element.value = text;
  element.dispatchEvent(new Event('input'));
  element.dispatchEvent(new Event('blur'));
  await page.fixture.whenStable();
}

async function reviewAndSend(page: Page): Promise<void> {
  page.root.querySelector('form')?.dispatchEvent(new Event('submit'));
  await page.fixture.whenStable();
  const send = page.root.querySelector<HTMLButtonElement>('app-check-in-review .actions button');
  send?.click();
  await page.fixture.whenStable();
}

afterEach(() => {
  opened?.http.match('/api/organizer').forEach((request) => request.flush({ name: null, email: null }));
  opened?.http.verify();
  opened = null;
  window.localStorage.clear();
});

describe('an old stored answer that breaks today’s text rule', () => {
  const payload = () => formPayload(3, { Name_on_Incorporation_Certificate: OLD_MARKUP });

  it('is no reason to refuse the form when the owner changed another field only', async () => {
    const page = await loaded(payload());
    await type(page, 'field-Equity_share', '250');
    await reviewAndSend(page);

    const request = opened!.http.expectOne('/api/submit');
    // The old answer is not sent: the CRM keeps what it holds.
    expect((request.request.body as SubmitRequest).values).toEqual({ Equity_share: 250 });
    request.flush(
      { activityId: 902, submittedAt: '2026-11-21T12:05:00Z' },
      { status: 201, statusText: 'Created' },
    );
  });

  it('shows as text, never as markup', async () => {
    const page = await loaded(payload());
    expect(input(page, 'field-Name_on_Incorporation_Certificate').value).toBe(OLD_MARKUP);
    expect(page.root.querySelector('b[onmouseover]')).toBeNull();
    expect(page.root.innerHTML).not.toContain('<b onmouseover');
  });

  it('is still checked once the owner edits it', async () => {
    const page = await loaded(payload());
    await type(page, 'field-Name_on_Incorporation_Certificate', `${OLD_MARKUP} edited`);
    page.root.querySelector('form')?.dispatchEvent(new Event('submit'));
    await page.fixture.whenStable();
    opened!.http.expectNone('/api/submit');
    expect(page.root.textContent).toContain('looks like web page code');
  });

  it('counts as valid in the form model until it is changed, whatever its type', () => {
    const form = buildCheckInForm(
      formPayload(3, {
        Name_on_Incorporation_Certificate: OLD_MARKUP,
        // An Int field holding a decimal, a negative share price: written by other callers.
        Steering_committee_size: 9.5,
        Equity_share: -3,
      }),
    );
    expect(form.group.valid).toBe(true);
    form.group.get('Steering_committee_size')?.setValue('10.5');
    expect(form.group.get('Steering_committee_size')?.errors).toEqual({ wholeNumber: true });
  });
});
