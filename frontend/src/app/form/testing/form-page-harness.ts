import { provideHttpClient, withInterceptors } from '@angular/common/http';
import {
  HttpTestingController,
  provideHttpClientTesting,
  type TestRequest,
} from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { provideRouter } from '@angular/router';
import type { FormDataPayload } from '@checkin/contract';
import { apiErrorInterceptor } from '../../core/api-error.interceptor';
import { DRAFT_STORAGE, draftKey } from '../draft-store';
import { FormPage } from '../form-page';
import { formPayload } from './form-payload.fixture';

/** FormPage opened in the test bed on an owner link, and the ways its specs act on it. */
export const DEMO_LINK = '?contactId=102&orgId=101&cid=102&cs=demo';
export const KEY = draftKey(102, 101);

export interface Page {
  fixture: ComponentFixture<FormPage>;
  http: HttpTestingController;
  root: HTMLElement;
  storage: Storage;
}

let opened: Page | null = null;

export async function openPage(search = DEMO_LINK, storage: Storage = window.localStorage): Promise<Page> {
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

export async function loaded(payload: FormDataPayload = formPayload(3), search = DEMO_LINK): Promise<Page> {
  const page = await openPage(search);
  page.http.expectOne((request) => request.url === '/api/data').flush(payload);
  await page.fixture.whenStable();
  return page;
}

export function byId<T extends HTMLElement = HTMLInputElement>(page: Page, id: string): T {
  const element = page.root.querySelector<T>(`#${id}`);
  if (!element) throw new Error(`#${id} is not on the page`);
  return element;
}

export function button(page: Page, name: string): HTMLButtonElement {
  const found = Array.from(page.root.querySelectorAll('button')).find((candidate) =>
    candidate.textContent?.replace(/\s+/g, ' ').trim().startsWith(name),
  );
  if (!found) throw new Error(`no button "${name}"`);
  return found;
}

export function headings(page: Page): string[] {
  return Array.from(page.root.querySelectorAll('h2')).map(
    (heading) => heading.textContent?.replace(/\s+/g, ' ').trim() ?? '',
  );
}

export async function type(page: Page, id: string, text: string): Promise<void> {
  const input = byId(page, id);
  input.value = text;
  input.dispatchEvent(new Event('input'));
  input.dispatchEvent(new Event('blur'));
  await page.fixture.whenStable();
}

export async function click(page: Page, element: HTMLElement): Promise<void> {
  element.click();
  await page.fixture.whenStable();
}

/** The form's own submit: it opens the review when the answers are valid, and sends nothing. */
export async function review(page: Page): Promise<void> {
  page.root.querySelector('form')?.dispatchEvent(new Event('submit'));
  await page.fixture.whenStable();
}

/** Review, then Send from the review when it opened (an invalid form stays on its errors). */
export async function submit(page: Page): Promise<void> {
  await review(page);
  const send = page.root.querySelector<HTMLButtonElement>('app-check-in-review .actions button');
  if (send) await click(page, send);
}

export function expectSubmit(page: Page): TestRequest {
  return page.http.expectOne('/api/submit');
}

/**
 * Answers the organizer's contact line of the page a test opened, checks that no other request
 * was left unanswered, and forgets the page and its saved drafts: each spec's afterEach.
 */
export function closeOpenedPage(): void {
  // The organizer's contact line is read once per page; its answer is not what these tests check.
  opened?.http.match('/api/organizer').forEach((request) => request.flush({ name: null, email: null }));
  opened?.http.verify();
  opened = null;
  window.localStorage.clear();
}
