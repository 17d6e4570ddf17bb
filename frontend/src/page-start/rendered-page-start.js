/*
 * The first code of an owner page the service rendered, inline in its head (the service puts its
 * text there with the response's nonce: backend/src/app/pages/page-renderer.ts). The page is
 * usable before any of the app's code runs, so even the app's entry (main.js) waits in the
 * page's inert `<template id="checkin-later-code">` until the page has been painted, or until the
 * owner acts if that comes first (docs/performance.md, "The app starts when the owner acts"):
 * a request started before the first paint shares the phone's line with the page, and
 * Lighthouse's simulated phone counts it on the way to the first and the largest paint.
 *
 * Until the app runs, this holds the form's native submission (the "Send" button, or Enter in a
 * field), which would navigate away with the answers in the address and the owner's link gone;
 * Angular's early event capture keeps the submit itself for the app. main.ts reads
 * `window.__checkinPageStart` and releases the hold once the app is stable.
 *
 * This file mirrors LATER_CODE_ELEMENT_ID (@checkin/contract), OWNER_ACTIONS (page-start.ts) and
 * keepsEnterInField (app/form/enter-in-field.ts); rendered-page-start.spec.ts checks that they
 * agree. Plain JavaScript: global scripts are not compiled.
 */
(function () {
  var LATER_CODE_ELEMENT_ID = 'checkin-later-code';
  var OWNER_ACTIONS = 'pointerdown touchstart mousedown keydown focusin click input change submit'.split(' ');
  var pageStart = { ownerActed: false, releaseSubmit: releaseSubmit };
  window.__checkinPageStart = pageStart;

  function keepsEnterInField(target) {
    return (
      (target instanceof HTMLInputElement && target.type !== 'file') || target instanceof HTMLSelectElement
    );
  }
  function holdSubmit(event) {
    event.preventDefault();
  }
  function holdEnter(event) {
    if (event.key === 'Enter' && keepsEnterInField(event.target)) event.preventDefault();
  }
  function releaseSubmit() {
    document.removeEventListener('submit', holdSubmit, true);
    document.removeEventListener('keydown', holdEnter, true);
  }
  document.addEventListener('submit', holdSubmit, true);
  document.addEventListener('keydown', holdEnter, true);

  var loaded = false;
  function loadTheApp() {
    if (loaded) return;
    loaded = true;
    for (var index = 0; index < OWNER_ACTIONS.length; index += 1)
      document.removeEventListener(OWNER_ACTIONS[index], onOwnerAction, true);
    var template = document.getElementById(LATER_CODE_ELEMENT_ID);
    if (!(template instanceof HTMLTemplateElement)) return;
    template.remove();
    // The entry script runs once in the document; the preloads are fetched and compiled, not run.
    document.head.append(template.content);
  }
  function onOwnerAction() {
    pageStart.ownerActed = true;
    loadTheApp();
  }
  for (var index = 0; index < OWNER_ACTIONS.length; index += 1)
    document.addEventListener(OWNER_ACTIONS[index], onOwnerAction, true);

  // The load event can come before the page's first paint. The code is asked for once the page's
  // first contentful paint has been shown (the paint timing entry is made when the frame is
  // presented); where the browser has no paint timing, in the task after the next frame.
  function afterNextFrame() {
    window.requestAnimationFrame(function () {
      window.setTimeout(loadTheApp, 0);
    });
  }
  function afterFirstPaint() {
    var Observer = window.PerformanceObserver;
    var types = (Observer && Observer.supportedEntryTypes) || [];
    if (types.indexOf('paint') === -1) return afterNextFrame();
    var observer = new Observer(function (list) {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      loadTheApp();
    });
    observer.observe({ type: 'paint', buffered: true });
    // A tab opened in the background reports no first paint: its code comes once it is shown.
    document.addEventListener('visibilitychange', function () {
      if (document.visibilityState === 'visible') afterNextFrame();
    });
  }
  if (document.readyState === 'complete') afterFirstPaint();
  else window.addEventListener('load', afterFirstPaint, { once: true });
})();
