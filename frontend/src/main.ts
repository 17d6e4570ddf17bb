import { keepEarlyInput } from './early-input';
import {
  afterLoad,
  hasSavedDraft,
  holdNativeSubmit,
  isServerRendered,
  localStorageOrNull,
  ownerActedBefore,
  preloadLaterCode,
  startWhenOwnerActs,
} from './page-start';

// The page's entry, kept free of Angular: the app itself is `./boot`, imported when it should run
// (docs/performance.md, "The app starts when the owner acts").
const serverRendered = isServerRendered(document);
const start = (onStable: () => void): void => {
  import('./boot')
    .then(({ boot }) => boot({ serverRendered, onStable }))
    .catch((error: unknown) => console.error(error));
};

if (!serverRendered) {
  start(() => undefined);
} else {
  // What the owner types or sends before the app runs is kept and handed over to it.
  const restoreEarlyInput = keepEarlyInput(document);
  const releaseSubmit = holdNativeSubmit(document);
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
    afterLoad(window, () => preloadLaterCode(document));
  }
}
