/**
 * One page load of the phone bench (tools/bench/phone.mjs, whose header says what is measured):
 * a fresh Chromium context, throttled as the phone when asked, with the ready probe installed
 * before the page's own scripts; answers the probe's times and the bytes the load carried.
 */

/** The phone: 1.6 Mbps down, 750 kbps up, 150 ms latency, 4× CPU slowdown. */
export const PHONE = {
  network: { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 },
  cpuSlowdown: 4,
};

/** What the probe logs once a load is complete (see installReadyProbe). */
const DONE_MESSAGE = 'checkin-phone-bench: ready';

/**
 * Runs in the page before its own scripts: records when each page's first useful thing appears,
 * and logs DONE_MESSAGE once the probes in `waitFor`, the first contentful paint and the app's
 * stable mark are all there. The bench waits for that message instead of evaluating anything in
 * the page while it loads: Playwright's first evaluation injects its own script, about 0.1 s of
 * the throttled phone's main thread in the middle of the page's first paint.
 */
function installReadyProbe({ waitFor, doneMessage, tapFirstField }) {
  const visible = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
  };
  const probes = {
    form: () =>
      [...document.querySelectorAll('main form input, main form select, main form textarea')].some(
        (field) => !field.disabled && visible(field),
      ),
    report: () =>
      [
        ...document.querySelectorAll(
          'svg.sparkline polyline[points], app-trend-chart svg.ngx-charts path.line[d]',
        ),
      ]
        .map((line) => line.closest('svg'))
        .some((svg) => svg !== null && visible(svg)),
    reportTapped: () => {
      // Trend charts sit in the earlier entries of each numeric field (its value is set in
      // tabular figures): the probe opens the first visible one's history as soon as its button
      // exists, standing in for the owner's tap. Fields of a collapsed stage are rendered but
      // hidden, and a text or date field's history has no chart.
      const toggle = [...document.querySelectorAll('app-field-entries')]
        .filter((entries) => entries.querySelector('.latest .value.tabular') !== null)
        .map((entries) => entries.querySelector('button[aria-expanded="false"]'))
        .find((button) => button !== null && visible(button));
      if (toggle && !window.__reportOpened) {
        window.__reportOpened = performance.now();
        toggle.click();
      }
      return [...document.querySelectorAll('app-trend-chart svg.ngx-charts')].some(
        (svg) => visible(svg) && svg.querySelector('path.line[d]') !== null,
      );
    },
    reportContent: () => [...document.querySelectorAll('app-field-entries')].some(visible),
    // Real content: the page's own heading (a browser-rendered page shows only a loading message
    // until the app has rendered; a server-rendered one has it in its HTML).
    realContent: () => [...document.querySelectorAll('main h1')].some(visible),
    reportSummary: () =>
      [...document.querySelectorAll('section[aria-labelledby="progress-heading"]')].some(visible),
    staff: () => [...document.querySelectorAll('app-staff-section section')].some(visible),
  };
  window.__ready = {};
  window.__paint = {};
  let done = false;
  const maybeDone = () => {
    if (done || window.__paint.fcp === undefined) return;
    if (waitFor.some((name) => window.__ready[name] === undefined)) return;
    if (performance.getEntriesByName('checkin:app-stable').length === 0) return;
    done = true;
    console.debug(doneMessage);
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === 'first-contentful-paint') window.__paint.fcp = entry.startTime;
    }
    maybeDone();
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver(maybeDone).observe({ type: 'mark', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__paint.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const check = () => {
    for (const [name, probe] of Object.entries(probes)) {
      if (window.__ready[name] === undefined && probe()) window.__ready[name] = performance.now();
    }
    // A rendered page's app starts at the owner's first action (main.ts): on the form, the owner
    // taps the first field as soon as it is usable, the most demanding case for the app's start.
    if (tapFirstField && window.__ready.form !== undefined && window.__tapped === undefined) {
      const field = [
        ...document.querySelectorAll('main form input, main form select, main form textarea'),
      ].find((candidate) => !candidate.disabled && visible(candidate));
      window.__tapped = performance.now();
      field?.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
      field?.focus();
    }
    maybeDone();
  };
  // Checked at the next frame, not on every mutation: the probes read layout, and doing that in a
  // mutation callback forces style and layout in the middle of parsing (a whole extra pass on the
  // throttled phone). At the frame, that layout is the one the frame does anyway.
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      check();
    });
  };
  new MutationObserver(schedule).observe(document, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['hidden', 'disabled', 'd', 'class', 'style'],
  });
}

/** One page load in a fresh context: milliseconds to ready, and bytes on the wire and decoded. */
export async function loadOnce(browser, url, page, throttled) {
  const context = await browser.newContext();
  try {
    await context.addInitScript(installReadyProbe, {
      waitFor: [page.probe ?? page.name, ...(page.name === 'report' ? ['reportTapped'] : [])],
      doneMessage: DONE_MESSAGE,
      tapFirstField: page.name === 'form',
    });
    const tab = await context.newPage();
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (throttled) {
      await cdp.send('Network.emulateNetworkConditions', PHONE.network);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });
    }
    let transferred = 0;
    let decoded = 0;
    let requests = 0;
    cdp.on('Network.loadingFinished', (event) => {
      transferred += event.encodedDataLength;
      requests += 1;
    });
    cdp.on('Network.dataReceived', (event) => {
      decoded += event.dataLength;
    });
    const finished = tab.waitForEvent('console', {
      predicate: (message) => message.text() === DONE_MESSAGE,
      timeout: 60_000,
    });
    await tab.goto(`${url}${page.path}`, { waitUntil: 'commit' });
    await finished;
    const { ready, paint, appStableMs } = await tab.evaluate(() => ({
      ready: window.__ready,
      paint: window.__paint,
      appStableMs: performance.getEntriesByName('checkin:app-stable')[0]?.startTime ?? null,
    }));
    // Nothing is usable before it is painted.
    const painted = (ms) => (ms === undefined || ms === null ? null : Math.max(ms, paint.fcp));
    const readyMs = painted(ready[page.probe ?? page.name]);
    const contentMs = painted(ready.reportContent);
    const realContentMs = painted(ready.realContent);
    const summaryMs = painted(ready.reportSummary);
    const tappedChartMs = painted(ready.reportTapped);
    const fcpMs = paint.fcp;
    // Where the time went: when the HTML, the last script and the data had arrived.
    const timeline = await tab.evaluate(() => {
      const [navigation] = performance.getEntriesByType('navigation');
      const resources = performance.getEntriesByType('resource');
      const latest = (filter) =>
        Math.round(Math.max(0, ...resources.filter(filter).map((entry) => entry.responseEnd)));
      return {
        htmlMs: Math.round(navigation?.responseEnd ?? 0),
        scriptsMs: latest((entry) => entry.name.endsWith('.js')),
        dataMs: latest((entry) => new URL(entry.name).pathname.startsWith('/api/')),
      };
    });
    // Whatever the page still fetches for its first view (fonts, late chunks) counts in its bytes.
    await tab.waitForLoadState('networkidle');
    const lcpMs = await tab.evaluate(() => window.__paint.lcp ?? null);
    return {
      readyMs,
      contentMs,
      realContentMs,
      summaryMs,
      tappedChartMs,
      fcpMs,
      lcpMs,
      appStableMs,
      transferred,
      decoded,
      requests,
      timeline,
    };
  } finally {
    await context.close();
  }
}
