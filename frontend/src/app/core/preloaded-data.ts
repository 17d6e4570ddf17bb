import { HttpErrorResponse } from '@angular/common/http';
import { inject, Injectable, InjectionToken, makeStateKey, TransferState } from '@angular/core';
import {
  type PageDataAnswer,
  pageDataUrl,
  STAFF_KEY_HEADER,
  STAFF_KEY_STORAGE_ITEM,
  staffReportUrl,
} from '@checkin/contract';
import { defer, type Observable, of, throwError } from 'rxjs';
import { toApiError } from './api-error.interceptor';

/**
 * The page's first data request, started before Angular boots (main.ts) so that it overlaps the
 * download of the page's code. The service names the same URL in a `Link: rel=preload` header on
 * the HTML, and the browser hands this `fetch` the preloaded response instead of asking again;
 * both sides build the URL with `pageDataUrl` (@checkin/contract) because only an identical URL
 * is reused. Angular's HttpClient cannot take it over: its XHR backend never reads preloads.
 */
interface StartedRequest {
  url: string;
  /** The staff key the request was sent with (staff page only). */
  staffKey: string | null;
  response: Promise<Response>;
}

/**
 * On the server only: the page's first data, which the service read before rendering
 * (backend/src/app/pages/page-data.ts). Null or absent in the browser.
 */
export const SERVER_PAGE_DATA = new InjectionToken<PageDataAnswer | null>('SERVER_PAGE_DATA');

/** The same answer, carried to the browser inside the rendered page (Angular's transfer state). */
const PAGE_DATA_STATE = makeStateKey<PageDataAnswer>('checkin.pageData');

let started: StartedRequest | null = null;

/**
 * The staff page cannot be preloaded (its key goes in a header, never in a URL or a hint), but
 * its request can still start here, with the key from the address or the tab's storage, instead
 * of after the staff page's code has loaded.
 */
export function startPageDataRequest(
  location: Pick<Location, 'pathname' | 'search'>,
  fetchFn: typeof fetch = fetch,
  storage: Pick<Storage, 'getItem'> | null = sessionStorageOrNull(),
  earlyRequestHolder: EarlyRequestHolder | null = globalThis as EarlyRequestHolder,
): void {
  started = null;
  if (location.pathname === '/staff') {
    const query = new URLSearchParams(location.search);
    const orgId = query.get('orgId')?.trim();
    const staffKey = query.get('key') || readStoredKey(storage);
    if (!orgId || !staffKey) return;
    const url = staffReportUrl(orgId);
    const early = takeEarlyRequest(earlyRequestHolder);
    if (early !== null && early.url === url && early.staffKey === staffKey) {
      started = early;
      return;
    }
    const headers = { [STAFF_KEY_HEADER]: staffKey };
    started = { url, staffKey, response: fetchFn(url, { credentials: 'same-origin', headers }) };
    return;
  }
  const url = pageDataUrl(location.pathname, location.search);
  // Same mode and credentials as `rel=preload; as=fetch; crossorigin`, or the preload is not reused.
  if (url !== null) started = { url, staffKey: null, response: fetchFn(url, { credentials: 'same-origin' }) };
}

/** Where `early-staff-request.js` leaves the request it started, before the app's code arrived. */
export interface EarlyRequestHolder {
  __checkinEarlyRequest?: unknown;
}

/** The early script's request, once: a later start (another navigation) makes its own. */
function takeEarlyRequest(holder: EarlyRequestHolder | null): StartedRequest | null {
  const early = holder?.__checkinEarlyRequest;
  if (holder) delete holder.__checkinEarlyRequest;
  if (typeof early !== 'object' || early === null) return null;
  const { url, staffKey, response } = early as Partial<StartedRequest>;
  if (typeof url !== 'string' || typeof staffKey !== 'string' || !(response instanceof Promise)) return null;
  return { url, staffKey, response };
}

function sessionStorageOrNull(): Storage | null {
  try {
    return sessionStorage;
  } catch {
    return null;
  }
}

function readStoredKey(storage: Pick<Storage, 'getItem'> | null): string | null {
  try {
    return storage?.getItem(STAFF_KEY_STORAGE_ITEM) ?? null;
  } catch {
    return null;
  }
}

/**
 * Pages' API services ask for the started request by URL: the first ask for that URL gets it,
 * every later one (a retry, another page) gets null and makes its own request. Failures arrive as
 * ApiError, as from HttpClient.
 */
@Injectable({ providedIn: 'root' })
export class PreloadedData {
  private readonly transferState = inject(TransferState);
  private readonly serverData = inject(SERVER_PAGE_DATA, { optional: true });
  /** The answers handed with the page not yet taken, by URL (read on the first ask). */
  private handed: Map<string, PageDataAnswer> | null = null;

  take<T>(url: string, staffKey: string | null = null): Observable<T> | null {
    // An answer handed with the page was read by the service for this very page load (a staff
    // page's with the key its address carried), whatever key the tab holds now.
    const handed = this.takeHandedAnswer(url);
    if (handed !== null) return answerOf<T>(handed);
    if (started?.url !== url || started.staffKey !== staffKey) return null;
    const answer = readAnswer<T>(url, started.response);
    started = null;
    // Read once, so every subscriber (a retry operator, say) gets the same answer or error;
    // marked handled here so an answer nobody subscribes to is no unhandled rejection.
    answer.catch(() => undefined);
    return defer(() => answer);
  }

  /**
   * On the server, the data the service read, which also goes into the page for the browser; in
   * the browser, that copy. Either way each answer (the page's own, and those it carries `also`)
   * is handed once, by its URL.
   */
  private takeHandedAnswer(url: string): PageDataAnswer | null {
    const handed = this.handedAnswers();
    const answer = handed.get(url) ?? null;
    handed.delete(url);
    return answer;
  }

  private handedAnswers(): Map<string, PageDataAnswer> {
    if (this.handed !== null) return this.handed;
    let data = this.serverData ?? null;
    if (data !== null) this.transferState.set(PAGE_DATA_STATE, data);
    else {
      data = this.transferState.get(PAGE_DATA_STATE, null);
      this.transferState.remove(PAGE_DATA_STATE);
    }
    this.handed = new Map(data ? [data, ...(data.also ?? [])].map((answer) => [answer.url, answer]) : []);
    return this.handed;
  }
}

/** Synchronous, so the browser's first render (hydration) shows what the server rendered. */
function answerOf<T>({ url, status, body }: PageDataAnswer): Observable<T> {
  if (status >= 200 && status < 300) return of(body as T);
  return throwError(() => toApiError(new HttpErrorResponse({ url, status, error: body })));
}

async function readAnswer<T>(url: string, pending: Promise<Response>): Promise<T> {
  let response: Response;
  try {
    response = await pending;
  } catch (error: unknown) {
    throw toApiError(new HttpErrorResponse({ url, status: 0, error }));
  }
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON (a proxy's page, say): HttpClient reports that as an error too, with the raw text.
    throw toApiError(new HttpErrorResponse({ url, status: response.status, error: text }));
  }
  if (!response.ok) throw toApiError(new HttpErrorResponse({ url, status: response.status, error: body }));
  return body as T;
}
