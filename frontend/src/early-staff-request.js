/*
 * The staff page's data request, started as soon as the page is parsed: a small classic script
 * (project.json "scripts", loaded with `defer`) that runs long before the app's module graph has
 * arrived, so the answer loads while the code still downloads (docs/performance.md, "Server-rendered
 * owner pages"). The key goes in the X-Staff-Key header only, never in a URL. The app takes the
 * request over in startPageDataRequest (app/core/preloaded-data.ts) when its URL and key are the
 * ones it would use; this file mirrors staffReportUrl, STAFF_KEY_HEADER and the key's storage item
 * (a test there checks that they agree). Plain JavaScript: global scripts are not compiled.
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
})();
