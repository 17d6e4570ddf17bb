import { keepEarlyInput } from './page-start/early-input';
import { STAFF_PAGE_PATH } from '@checkin/contract';
import {
  afterLoad,
  hasSavedDraft,
  isServerRendered,
  localStorageOrNull,
  moveStaffKeyOutOfAddress,
  ownerActedBefore,
  preloadLaterCode,
  renderedPageStart,
  startWhenOwnerActs,
} from './page-start/page-start';

// The page's entry, kept free of Angular: the app itself is `./boot`, imported when it should run
// (docs/performance.md, "The app starts when the owner acts").
moveStaffKeyOutOfAddress(window);
const serverRendered = isServerRendered(document);
const staffPage = window.location.pathname === STAFF_PAGE_PATH;
const start = (onStable: () => void): void => {
  import('./page-start/boot')
    .then(({ boot }) => boot({ serverRendered, onStable }))
    .catch((error: unknown) => console.error(error));
};

if (!serverRendered) {
  start(() => undefined);
} else {
  // What the owner types or sends before the app runs is kept and handed over to it; the form's
  // native submission stays held (by the page's inline start) until then.
  const restoreEarlyInput = keepEarlyInput(document);
  const releaseSubmit = (): void => renderedPageStart(window)?.releaseSubmit();
  let started = false;
  const startOnce = (): void => {
    if (started) return;
    started = true;
    preloadLaterCode(document);
    start(() => {
      restoreEarlyInput();
      releaseSubmit();
    });
  };
  const draftToOffer = window.location.pathname === '/' && hasSavedDraft(localStorageOrNull(window));
  if (draftToOffer || ownerActedBefore(window)) startOnce();
  else {
    startWhenOwnerActs(document, startOnce);
    // The staff page's later sections are built by the app once the browser is idle: a staff
    // member reads on, so its app starts as soon as the page has loaded.
    afterLoad(window, staffPage ? startOnce : () => preloadLaterCode(document));
  }
}
