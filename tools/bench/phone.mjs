#!/usr/bin/env node
/**
 * The owner's pages on a slow phone, in Chromium (CHROMIUM_PATH, default /usr/bin/chromium):
 *
 *   node tools/bench/phone.mjs [--runs=N] [--pages=form,report,staff] [--no-lighthouse]
 *                                                  (build first; `npm run bench` runs it all)
 *
 * Starts the built service in stub mode on a free port. For the form, the report and the staff
 * page it opens the demo link RUNS times (default 7) in a fresh browser context with the cache
 * empty, throttled through the DevTools protocol as the phone: 1.6 Mbps down, 750 kbps up,
 * 150 ms latency (Network.emulateNetworkConditions) and 4× CPU slowdown
 * (Emulation.setCPUThrottlingRate); then as many times unthrottled. The staff page of a co-op
 * with a long history (issue 25) is measured the same way, throttled only, on a second service
 * in live mode against the CRM emulator (startLargeHistoryService). A script installed before
 * the page's own records, with a MutationObserver, the first moment (performance.now(), from
 * navigation start) when:
 *   form:   a form field (input, select, textarea) is rendered, visible and enabled;
 *   report: a trend chart is drawn: the key figures' trend lines, which the service draws into
 *           the page (plain SVG), or an interactive chart. Also reported: the first interactive
 *           chart after a tap (charts sit in each numeric field's earlier entries: the probe opens
 *           the first visible one's as soon as its button exists, as the owner's tap would; a
 *           tap before hydration is replayed then), the first field's entry and the summary;
 *   staff:  a section of the staff report is rendered and visible;
 *   every page: its own heading (`main h1`), the first paint of real content.
 * A page counts as usable only once painted: each of these is at least the page's first
 * contentful paint. Also recorded: first contentful paint (FCP; on a server-rendered page that is
 * its real content, on a browser-rendered one the loading message), the largest contentful paint
 * (LCP), the report's summary ("Progress through the stages"), and when the app is running: the
 * `checkin:app-stable` mark main.ts sets once Angular has booted, hydrated the server's page and
 * replayed early events (time to hydration; every page opened from its link is server-rendered).
 * An owner page's app starts at the owner's first action (docs/performance.md, "The app starts
 * when the owner acts"): on the form the probe taps the first field as soon as it is usable, on
 * the report it opens a chart, so their hydration follows the earliest possible tap. The staff
 * page's starts once the page has loaded (docs/performance.md, "The staff page rendered from its
 * link").
 * The median of the runs is the figure. Bytes transferred per page load (compressed, with
 * headers, as the network carried them) and decoded (raw) come from the protocol's
 * Network.loadingFinished and Network.dataReceived events; resource timing tells when the HTML,
 * the last script and the data had arrived (htmlMs, scriptsMs, dataMs), so the rest of the time
 * to ready is the phone's CPU running the code. Then Lighthouse (its default mobile
 * preset: simulated 150 ms RTT, 1.6 Mbps, 4× CPU) audits the form and report pages.
 *
 * Prints a table and writes dist/bench/phone.json with `figures` for `npm run bench`'s summary.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUTPUT = join(ROOT, 'dist', 'bench', 'phone.json');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
/** The demo data's ids (backend/src/app/crm/in-memory/demo-data.ts) and stub mode's keys. */
const OWNER_LINK = 'contactId=102&orgId=101&cid=102&cs=fe01ce2a7fbac8fafaed7c982a04e229_1767225600_inf';
const PHONE = {
  network: { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 },
  cpuSlowdown: 4,
};
/** How many check-ins the large co-op holds (issue 25's large co-op), and its service's staff key. */
const LARGE_HISTORY_CHECKINS = 400;
const LARGE_HISTORY_STAFF_KEY = 'bench-staff-key-0123456789';
const PAGES = [
  {
    name: 'form',
    what: 'first form field usable',
    path: `/?${OWNER_LINK}`,
    targetMs: 1000,
    lighthouse: true,
  },
  {
    name: 'report',
    what: 'first chart visible',
    path: `/report?${OWNER_LINK}`,
    targetMs: 1500,
    lighthouse: true,
  },
  {
    name: 'staff',
    what: 'first section visible',
    path: '/staff?orgId=101&key=demo',
    targetMs: 1500,
    lighthouse: false,
  },
  {
    // Issue 25: the staff page of a co-op with a long history. Stub mode's demo stays as it is:
    // this page is served by a second service in live mode against the CRM emulator, into which
    // the bench first sends LARGE_HISTORY_CHECKINS check-ins through the service's own submit.
    name: 'staff-large',
    probe: 'staff',
    what: `first section visible, a co-op with ${LARGE_HISTORY_CHECKINS} check-ins`,
    path: `/staff?orgId=101&key=${LARGE_HISTORY_STAFF_KEY}`,
    targetMs: 2000,
    lighthouse: false,
    largeHistory: true,
    // Throttled loads only: the case is there for its phone figure.
    unthrottled: false,
  },
];

/** What the probe logs once a load is complete (see installReadyProbe). */
const DONE_MESSAGE = 'checkin-phone-bench: ready';
const LIGHTHOUSE_CATEGORIES = ['performance', 'accessibility', 'best-practices'];
const LIGHTHOUSE_TARGETS = { performance: 98, accessibility: 100, 'best-practices': 100 };
/** Issue 27: the report's summary (or first chart) on screen within a second. */
const REPORT_SUMMARY_TARGET_MS = 1000;
/** Issue 27: Lighthouse's largest contentful paint of the form and the report. */
const LIGHTHOUSE_LCP_TARGET_MS = 1200;

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

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** The built service in stub mode, as `npm start` runs it (request logs off: they are not measured here). */
async function startService(env = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'backend', 'main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'development',
      PORT: String(port),
      PUBLIC_BASE_URL: url,
      LOG_REQUESTS: 'false',
      ...env,
    },
    // Live mode's warnings (the emulator's file-link lookup) are not the bench's output.
    stdio: ['ignore', 'ignore', Object.keys(env).length > 0 ? 'ignore' : 'inherit'],
  });
  for (const deadline = Date.now() + 60_000; ;) {
    if (child.exitCode !== null) throw new Error('the service stopped while starting');
    try {
      await fetch(`${url}/api/health/live`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error('the service did not start in 60 s');
      await new Promise((done) => setTimeout(done, 200));
    }
  }
  return { url, stop: () => new Promise((done) => (child.once('exit', done), child.kill('SIGTERM'))) };
}

/**
 * The large co-op's service: the CRM emulator (the back end's build, dist/backend/emulator.js,
 * seeded with the demo data) and the service in live mode against it; then the demo co-op is
 * given LARGE_HISTORY_CHECKINS check-ins through `POST /api/submit`, each changing a few figures
 * so its fields have a long history too.
 */
async function startLargeHistoryService() {
  const emulatorPort = await freePort();
  const apiKey = 'bench-api-key-0123456789';
  const emulator = spawn(
    process.execPath,
    [join(ROOT, 'dist', 'backend', 'emulator.js'), '--port', String(emulatorPort), '--api-key', apiKey],
    { cwd: ROOT, env: { PATH: process.env.PATH ?? '' }, stdio: 'ignore' },
  );
  const stopEmulator = () => new Promise((done) => (emulator.once('exit', done), emulator.kill('SIGTERM')));
  let service;
  try {
    service = await startService({
      CRM_BASE_URL: `http://127.0.0.1:${emulatorPort}`,
      CRM_API_KEY: apiKey,
      STAFF_REPORT_KEY: LARGE_HISTORY_STAFF_KEY,
      RATE_LIMIT_SUBMITS_PER_MINUTE: String(LARGE_HISTORY_CHECKINS * 10),
    });
    const submit = async (index) => {
      const answer = await fetch(`${service.url}/api/submit`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: service.url },
        body: JSON.stringify({
          cid: '102',
          cs: 'fe01ce2a7fbac8fafaed7c982a04e229_1767225600_inf',
          contactId: '102',
          orgId: '101',
          submissionId: crypto.randomUUID(),
          values: { Store_size_sqft: 4000 + index, Member_owner_count: 900 + index },
        }),
      });
      if (answer.status !== 201)
        throw new Error(`seeding check-in ${index}: ${answer.status} ${await answer.text()}`);
    };
    // A few at a time: the emulator answers each CRM call in turn.
    for (let next = 0; next < LARGE_HISTORY_CHECKINS; next += 8) {
      await Promise.all(
        Array.from({ length: Math.min(8, LARGE_HISTORY_CHECKINS - next) }, (_, offset) =>
          submit(next + offset),
        ),
      );
    }
  } catch (error) {
    await service?.stop();
    await stopEmulator();
    throw error;
  }
  return { url: service.url, stop: async () => (await service.stop(), await stopEmulator()) };
}

/** One page load in a fresh context: milliseconds to ready, and bytes on the wire and decoded. */
async function loadOnce(browser, url, page, throttled) {
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

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function measurePages(urlOf, runs, pages) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS });
  const results = {};
  try {
    for (const page of pages) {
      const url = urlOf(page);
      // One unmeasured load first: the service's own first-request costs (code, caches) are not the phone's.
      await loadOnce(browser, url, page, false);
      const result = { throttled: [], unthrottled: [] };
      for (let run = 0; run < runs; run += 1) {
        result.throttled.push(await loadOnce(browser, url, page, true));
        if (page.unthrottled !== false) result.unthrottled.push(await loadOnce(browser, url, page, false));
      }
      results[page.name] = result;
      const ms = (loads) => Math.round(median(loads.map((load) => load.readyMs)));
      const unthrottled = result.unthrottled.length > 0 ? `, ${ms(result.unthrottled)} ms unthrottled` : '';
      console.log(`${page.name}: ${ms(result.throttled)} ms throttled${unthrottled} (median of ${runs})`);
    }
  } finally {
    await browser.close();
  }
  return results;
}

async function lighthouseScores(url, pages) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  const browser = await puppeteer.connect({
    browserURL: `http://127.0.0.1:${chrome.port}`,
    defaultViewport: null,
  });
  const scores = {};
  const shortfalls = {};
  try {
    for (const page of pages.filter((candidate) => candidate.lighthouse)) {
      // No config: Lighthouse's default is the mobile preset with simulated phone throttling.
      // A run whose trace Lighthouse could not read (it says so in runtimeError, e.g. NO_NAVSTART)
      // is run once more.
      let lhr;
      for (let attempt = 1; attempt <= 2 && (lhr === undefined || lhr.runtimeError); attempt += 1) {
        const tab = await browser.newPage();
        ({ lhr } = await lighthouse(
          `${url}${page.path}`,
          { logLevel: 'error', onlyCategories: LIGHTHOUSE_CATEGORIES },
          undefined,
          tab,
        ));
        await tab.close();
      }
      scores[page.name] = Object.fromEntries(
        LIGHTHOUSE_CATEGORIES.map((category) => [
          category,
          Math.round((lhr.categories[category].score ?? 0) * 100),
        ]),
      );
      // A metric Lighthouse could not compute (it says why in runtimeError) is null.
      const metric = (id, digits = 0) => {
        const value = lhr.audits[id]?.numericValue;
        return typeof value === 'number' ? Number(value.toFixed(digits)) : null;
      };
      scores[page.name].metrics = {
        firstContentfulPaintMs: metric('first-contentful-paint'),
        largestContentfulPaintMs: metric('largest-contentful-paint'),
        speedIndexMs: metric('speed-index'),
        totalBlockingTimeMs: metric('total-blocking-time'),
        cumulativeLayoutShift: metric('cumulative-layout-shift', 3),
        ...(lhr.runtimeError ? { runtimeError: lhr.runtimeError.message } : {}),
      };
      shortfalls[page.name] = LIGHTHOUSE_CATEGORIES.flatMap((category) =>
        lhr.categories[category].auditRefs
          .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id].score ?? 1) < 1)
          .map(
            (ref) =>
              `${category}: ${ref.id} (${lhr.audits[ref.id].displayValue ?? lhr.audits[ref.id].title})`,
          ),
      );
    }
  } finally {
    await browser.disconnect();
    chrome.kill();
  }
  return { scores, shortfalls };
}

export async function runPhoneBench({
  runs = 7,
  output = OUTPUT,
  only = PAGES.map((page) => page.name),
  withLighthouse = true,
} = {}) {
  const chosen = PAGES.filter((page) => only.includes(page.name));
  const service = await startService();
  let largeHistory = null;
  let pages;
  let audit = { scores: {}, shortfalls: {} };
  try {
    if (chosen.some((page) => page.largeHistory)) largeHistory = await startLargeHistoryService();
    const urlOf = (page) => (page.largeHistory ? largeHistory.url : service.url);
    pages = await measurePages(urlOf, runs, chosen);
    if (withLighthouse) audit = await lighthouseScores(service.url, chosen);
  } finally {
    await service.stop();
    await largeHistory?.stop();
  }
  const figures = [];
  const rows = [];
  for (const page of chosen) {
    const { throttled, unthrottled } = pages[page.name];
    const ms = (loads) => (loads.length === 0 ? null : Math.round(median(loads.map((load) => load.readyMs))));
    const msOf = (loads, key) => {
      const values = loads.map((load) => load[key]).filter((value) => typeof value === 'number');
      return values.length === 0 ? null : Math.round(median(values));
    };
    const kB = (loads, key) => Number((median(loads.map((load) => load[key])) / 1000).toFixed(1));
    figures.push(
      {
        figure: `Phone (1.6 Mbps, 150 ms, 4× CPU): ${page.name}, ${page.what}`,
        value: ms(throttled),
        unit: 'ms',
        target: { max: page.targetMs },
      },
      ...(unthrottled.length > 0
        ? [
            {
              figure: `Unthrottled: ${page.name}, ${page.what}`,
              value: ms(unthrottled),
              unit: 'ms',
              target: {},
            },
          ]
        : []),
      {
        figure: `Phone: ${page.name}, first paint of real content (its heading)`,
        value: msOf(throttled, 'realContentMs'),
        unit: 'ms',
        target: {},
      },
      {
        figure: `Phone: ${page.name}, first contentful paint`,
        value: msOf(throttled, 'fcpMs'),
        unit: 'ms',
        target: {},
      },
      {
        figure: `Phone: ${page.name}, largest contentful paint`,
        value: msOf(throttled, 'lcpMs'),
        unit: 'ms',
        target: {},
      },
      {
        figure: `Phone: ${page.name}, app running (${page.name.startsWith('staff') ? 'booted' : 'hydrated after the first tap, early events replayed'})`,
        value: msOf(throttled, 'appStableMs'),
        unit: 'ms',
        target: {},
      },
      ...(page.name === 'report'
        ? [
            {
              figure: 'Phone: report, summary (progress through the stages) visible',
              value: msOf(throttled, 'summaryMs'),
              unit: 'ms',
              target: { max: REPORT_SUMMARY_TARGET_MS },
            },
            {
              figure: 'Phone: report, first interactive chart after a tap (replayed once hydrated)',
              value: msOf(throttled, 'tappedChartMs'),
              unit: 'ms',
              target: {},
            },
            {
              figure: 'Phone: report, first field visible',
              value: msOf(throttled, 'contentMs'),
              unit: 'ms',
              target: {},
            },
          ]
        : []),
      {
        figure: `Bytes per ${page.name} page load, compressed on the wire`,
        value: kB(throttled, 'transferred'),
        unit: 'kB',
        target: {},
      },
      {
        figure: `Bytes per ${page.name} page load, decoded`,
        value: kB(throttled, 'decoded'),
        unit: 'kB',
        target: {},
      },
    );
    rows.push({
      page: page.name,
      ready: page.what,
      phoneMs: ms(throttled),
      phoneRuns: throttled.map((load) => Math.round(load.readyMs)).join(' '),
      unthrottledMs: ms(unthrottled),
      contentPaintMs: msOf(throttled, 'realContentMs'),
      fcpMs: msOf(throttled, 'fcpMs'),
      lcpMs: msOf(throttled, 'lcpMs'),
      appStableMs: msOf(throttled, 'appStableMs'),
      ...(page.name === 'report'
        ? { summaryMs: msOf(throttled, 'summaryMs'), tappedChartMs: msOf(throttled, 'tappedChartMs') }
        : {}),
      wireKB: kB(throttled, 'transferred'),
      decodedKB: kB(throttled, 'decoded'),
      requests: median(throttled.map((load) => load.requests)),
      htmlMs: Math.round(median(throttled.map((load) => load.timeline.htmlMs))),
      scriptsMs: Math.round(median(throttled.map((load) => load.timeline.scriptsMs))),
      dataMs: Math.round(median(throttled.map((load) => load.timeline.dataMs))),
    });
  }
  for (const [page, byCategory] of Object.entries(audit.scores)) {
    for (const category of LIGHTHOUSE_CATEGORIES) {
      figures.push({
        figure: `Lighthouse mobile: ${page}, ${category}`,
        value: byCategory[category],
        unit: '/ 100',
        target: { min: LIGHTHOUSE_TARGETS[category] },
      });
    }
    figures.push({
      figure: `Lighthouse mobile: ${page}, largest contentful paint`,
      value: byCategory.metrics.largestContentfulPaintMs,
      unit: 'ms',
      target: { max: LIGHTHOUSE_LCP_TARGET_MS },
    });
  }
  // The machine's load while measuring: these are wall-clock figures, and a busy machine slows them.
  const report = {
    name: 'phone',
    runs,
    phone: PHONE,
    loadAverage: loadavg(),
    rows,
    lighthouse: audit,
    figures,
  };
  await mkdir(dirname(output), { recursive: true });
  await writeFile(output, `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const option = (name) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const report = await runPhoneBench({
    ...(option('runs') ? { runs: Number(option('runs')) } : {}),
    ...(option('pages') ? { only: option('pages').split(',') } : {}),
    withLighthouse: !process.argv.includes('--no-lighthouse'),
  });
  console.table(report.rows);
  console.log(JSON.stringify(report.lighthouse, null, 2));
  console.log(`Written to ${OUTPUT}`);
}
