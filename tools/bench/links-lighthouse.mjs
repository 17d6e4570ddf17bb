#!/usr/bin/env node
/**
 * Lighthouse scores of the links page (index.html with data/links.json) in each template.
 *
 *   node tools/bench/links-lighthouse.mjs
 *
 * Serves the repository root on a free local port, audits `/?template=<name>` with Lighthouse's
 * desktop preset in Chromium (CHROMIUM_PATH, default /usr/bin/chromium), prints a table and writes
 * dist/bench/links-lighthouse.json. `runLinksLighthouse()` returns the same scores to a caller.
 *
 * The page shows the site icon of each link it points to. Requests to other hosts are answered
 * here with a small local icon, so the scores measure this page and not the network or the
 * availability of those sites (this also lets the bench run without internet access).
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../harness/chromium.cjs';
import { startStaticServer } from '../harness/static-server.cjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUTPUT = join(ROOT, 'dist', 'bench', 'links-lighthouse.json');
const TEMPLATES = ['editorial', 'swiss', 'cosmos'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const OTHER_HOST_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#777"/></svg>';

/** A browser tab in which every request to another host gets the local icon. */
async function openTab(browser, siteOrigin) {
  const page = await browser.newPage();
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (new URL(request.url()).origin === siteOrigin) return request.continue();
    return request.respond({ status: 200, contentType: 'image/svg+xml', body: OTHER_HOST_ICON });
  });
  return page;
}

/** The audits that kept a category below 100, so a lower score says why. */
function shortfalls(lhr) {
  return CATEGORIES.flatMap((category) =>
    lhr.categories[category].auditRefs
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id].score ?? 1) < 1)
      .map(
        (ref) => `${category}: ${ref.id} (${lhr.audits[ref.id].displayValue ?? lhr.audits[ref.id].title})`,
      ),
  );
}

/** Audits each template and returns `{ [template]: { performance, accessibility, ... } }` as 0–100 scores. */
export async function runLinksLighthouse({ templates = TEMPLATES, output = OUTPUT } = {}) {
  const site = await startStaticServer(ROOT);
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROMIUM_FLAGS,
  });
  const browser = await puppeteer.connect({
    browserURL: `http://127.0.0.1:${chrome.port}`,
    defaultViewport: null,
  });
  const report = { lighthouse: '', preset: 'desktop', scores: {}, shortfalls: {} };
  try {
    for (const template of templates) {
      const page = await openTab(browser, new URL(site.url).origin);
      const { lhr } = await lighthouse(
        `${site.url}?template=${template}`,
        { logLevel: 'error', onlyCategories: CATEGORIES },
        desktopConfig,
        page,
      );
      await page.close();
      report.lighthouse = lhr.lighthouseVersion;
      report.scores[template] = Object.fromEntries(
        CATEGORIES.map((category) => [category, Math.round(lhr.categories[category].score * 100)]),
      );
      report.shortfalls[template] = shortfalls(lhr);
    }
  } finally {
    await browser.disconnect();
    chrome.kill();
    await site.close();
  }
  await mkdir(dirname(output), { recursive: true });
  await writeFile(output, `${JSON.stringify(report, null, 2)}\n`);
  return report.scores;
}

function printTable(scores) {
  const rows = Object.entries(scores).map(([template, byCategory]) => [
    template,
    ...CATEGORIES.map((category) => String(byCategory[category])),
  ]);
  const header = ['template', ...CATEGORIES];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log([line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const scores = await runLinksLighthouse();
  printTable(scores);
  console.log(`\nWritten to ${OUTPUT}`);
}
