import {
  inject,
  Injectable,
  InjectionToken,
  makeEnvironmentProviders,
  makeStateKey,
  provideAppInitializer,
  TransferState,
} from '@angular/core';
import type { PageContext } from '@checkin/contract';
import { setDisplayTimeZone } from '../shared/dates';

/**
 * On the server only: the page's context, which the service hands to each render
 * (backend/src/app/pages/page-renderer.ts). Absent in the browser.
 */
export const SERVER_PAGE_CONTEXT = new InjectionToken<PageContext | null>('SERVER_PAGE_CONTEXT');

/** The same context, carried to the browser inside the rendered page (Angular's transfer state). */
const PAGE_CONTEXT_STATE = makeStateKey<PageContext>('checkin.pageContext');

/**
 * Whom to contact and the zone dates are shown in, as the service rendered the page with them: the
 * started app shows what the rendered page showed. Null on a page the browser rendered by itself.
 */
@Injectable({ providedIn: 'root' })
export class PageContextStore {
  readonly context: PageContext | null;

  constructor() {
    const transferState = inject(TransferState);
    const fromServer = inject(SERVER_PAGE_CONTEXT, { optional: true }) ?? null;
    if (fromServer !== null) transferState.set(PAGE_CONTEXT_STATE, fromServer);
    this.context = fromServer ?? transferState.get(PAGE_CONTEXT_STATE, null);
  }
}

/** Dates in the page's zone before the first page renders, on the server and in the browser alike. */
export function providePageContext() {
  return makeEnvironmentProviders([
    provideAppInitializer(() => setDisplayTimeZone(inject(PageContextStore).context?.timeZone ?? null)),
  ]);
}
