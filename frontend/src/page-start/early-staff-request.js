/*
 * The staff page's data request, started while the page's head is read: a small classic script
 * (project.json "scripts"; tools/build/precompress.mjs puts its text inline in index.html's head,
 * allowed by its hash in the content security policy) that runs long before the app's module
 * graph has arrived, so the answer loads while the code still downloads (docs/performance.md,
 * "The staff page's data request from the head"). The key goes in the X-Staff-Key header only,
 * never in a URL. The app takes the request over in startPageDataRequest
 * (app/core/preloaded-data.ts) when its URL and key are the ones it would use; this file mirrors
 * staffReportUrl, STAFF_KEY_HEADER and the key's storage item (a test there checks that they
 * agree). Plain JavaScript: global scripts are not compiled.
 */
(function () {
  if (window.location.pathname !== '/staff') return;
  var query = new URLSearchParams(window.location.search);
  var orgId = (query.get('orgId') || '').trim();
  var staffKey = query.get('key');
  if (!staffKey) {
    try {
      staffKey = window.sessionStorage.getItem('checkin.staffKey');
    } catch (error) {
      staffKey = null;
    }
  }
  if (!orgId || !staffKey) return;
  var url = '/api/staff/report?orgId=' + encodeURIComponent(orgId);
  var response = window.fetch(url, { credentials: 'same-origin', headers: { 'X-Staff-Key': staffKey } });
  // Handled here too, so a failure nobody takes over is no unhandled rejection.
  response.catch(function () {});
  window.__checkinEarlyRequest = { url: url, staffKey: staffKey, response: response };

  // The page writes dates with Intl, and a page's first Intl.DateTimeFormat costs 45-80 ms
  // (a phone: four times that) whatever its locale or options, later ones under 5 ms. Made here,
  // while the code and the data are still on their way, it is off the path to the first section
  // (docs/performance.md, "The staff page's data request from the head").
  var warmIntl = function () {
    try {
      new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(0);
      new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(0);
    } catch (error) {
      // A browser without Intl's date styles formats later, as it would have.
    }
  };
  if (typeof window.requestIdleCallback === 'function')
    window.requestIdleCallback(warmIntl, { timeout: 500 });
  else window.setTimeout(warmIntl, 0);
})();
