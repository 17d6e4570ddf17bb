import { FORM_ID, LATER_CODE_ELEMENT_ID, STAFF_KEY_STORAGE_ITEM, STAFF_PAGE_PATH } from '@checkin/contract';
import { earlyCapturedEvents } from './early-input';

/**
 * When the app's code runs on a page the service rendered (docs/performance.md, "The app starts
 * when the owner acts"). Such a page is already usable: its fields show the owner's answers and
 * take typing, its report and charts are drawn. Booting Angular and hydrating the page costs a
 * slow phone's main thread about a second, which it would otherwise spend while the owner is
 * still reading; so the code is fetched (not run) once the page has loaded, and runs on the
 * owner's first action, or at once when there is something only the app can show (a saved
 * draft to offer). Nothing here imports Angular: main.ts stays a few kilobytes, and the page's
 * first paint shares the phone's line and CPU with nothing else.
 */

/** The actions that start the app: any touch, click, key or focus, in the capture phase. */
export const OWNER_ACTIONS = [
  'pointerdown',
  'touchstart',
  'mousedown',
  'keydown',
  'focusin',
  'click',
  'input',
  'change',
  'submit',
] as const;

/** Where drafts of the form live in local storage (form/draft-store.ts, `draftKey`). */
const DRAFT_KEY_PREFIX = `${FORM_ID}:`;

/**
 * True when the page arrived rendered by the service (Angular marks the root element): its data
 * is inside the page, so no data request is started.
 */
export function isServerRendered(document: Pick<Document, 'querySelector'>): boolean {
  return document.querySelector('app-root[ng-server-context]') !== null;
}

/**
 * True when the owner already acted before this code ran (main.js is fetched once the page has
 * been painted, or at the owner's first action): the page's inline start saw the action, Angular's
 * early event capture holds their clicks or typing, or a field has the focus.
 */
export function ownerActedBefore(window: Window): boolean {
  if (renderedPageStart(window)?.ownerActed === true) return true;
  if (earlyCapturedEvents(window).length > 0) return true;
  const focused = window.document.activeElement;
  return focused !== null && focused !== window.document.body && focused !== window.document.documentElement;
}

/** Calls `start` once, on the first of the owner's actions anywhere in the page. */
export function startWhenOwnerActs(document: Document, start: () => void): void {
  const onAction = (): void => {
    for (const type of OWNER_ACTIONS) document.removeEventListener(type, onAction, true);
    start();
  };
  for (const type of OWNER_ACTIONS) document.addEventListener(type, onAction, true);
}

/**
 * Puts the page's code preloads (`<template id="checkin-later-code">`, inert until now: a
 * template's links are neither fetched nor scanned) into the head, so the browser fetches and
 * compiles the code without running it. On a rendered owner page the page's inline start
 * (rendered-page-start.js) has already moved them, with main.js; the staff page's are moved here.
 * Safe to call more than once.
 */
export function preloadLaterCode(document: Document): void {
  const template = document.getElementById(LATER_CODE_ELEMENT_ID);
  if (!(template instanceof HTMLTemplateElement)) return;
  template.remove();
  document.head.append(template.content);
}

/**
 * What the inline script of a rendered owner page (rendered-page-start.js) leaves for the app:
 * whether the owner's action is what loaded the app's code, and the release of its hold on the
 * form's native submission.
 */
export interface RenderedPageStart {
  ownerActed: boolean;
  releaseSubmit(): void;
}

/** The rendered page's inline start (absent on the staff page and on a browser-rendered page). */
export function renderedPageStart(window: Window): RenderedPageStart | null {
  const found = (window as Window & { __checkinPageStart?: RenderedPageStart }).__checkinPageStart;
  return found ?? null;
}

/** True when this browser keeps a draft of the form (which only the running app can offer). */
export function hasSavedDraft(storage: Pick<Storage, 'length' | 'key'> | null): boolean {
  if (storage === null) return false;
  try {
    for (let index = 0; index < storage.length; index += 1)
      if (storage.key(index)?.startsWith(DRAFT_KEY_PREFIX)) return true;
  } catch {
    // Storage the browser refuses holds no draft the app could read either.
  }
  return false;
}

/** Local storage, or null where the browser refuses it. */
export function localStorageOrNull(window: Window): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Runs `then` once the page has loaded (at once when it has). */
export function afterLoad(window: Window, then: () => void): void {
  if (window.document.readyState === 'complete') then();
  else window.addEventListener('load', then, { once: true });
}

/**
 * A staff link's key (`/staff?orgId=O&key=K`) moved into the tab's session storage and out of the
 * address as soon as the page's entry runs, before the app (which on a rendered page starts later):
 * the address bar, the history and whatever is copied from them never keep it (docs/decisions.md,
 * "Staff page"). Where the browser refuses storage the key stays in the address for the app, which
 * then keeps it in memory (staff/staff-key-store.ts).
 */
export function moveStaffKeyOutOfAddress(window: Window): void {
  if (window.location.pathname !== STAFF_PAGE_PATH) return;
  const url = new URL(window.location.href);
  const key = url.searchParams.get('key');
  if (!key) return;
  try {
    window.sessionStorage.setItem(STAFF_KEY_STORAGE_ITEM, key);
  } catch {
    return;
  }
  url.searchParams.delete('key');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}
