#!/usr/bin/env node
/**
 * Runs after the Angular build (the front end's `build` target):
 *
 *   node tools/build/precompress.mjs <dist/frontend>
 *
 * 1. Writes `<file>.br` (Brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every text
 *    file of `<dist>/browser`, so the service sends compressed files without compressing per
 *    request. A variant no smaller than its original is not written.
 * 2. Writes `<dist>/browser/page-chunks.json` (from esbuild's metafile, `<dist>/stats.json`):
 *    under `*` the app's start (`frontend/src/page-start/boot.ts`, which main.ts imports dynamically, and
 *    its static imports), and for each page route the chunks its page runs beyond that (the page
 *    component's chunk, what that imports, and what the component's chunk itself imports
 *    dynamically). The service names a route's chunks in a `Link: rel=modulepreload` header with
 *    a browser-rendered page, so the browser fetches them alongside main.js instead of after it
 *    has run, and both lists inside a server-rendered page for main.ts to preload once the page
 *    has loaded (docs/performance.md, "The app starts when the owner acts").
 *
 * 3. Puts the staff page's early data request (`frontend/src/page-start/early-staff-request.js`, which the
 *    builder links at the end of the body with `defer`) inside index.html's head as an inline
 *    script: a deferred script waits for the whole page and its stylesheet, and on a slow phone
 *    its own download queued behind the page's module preloads, so the request started at
 *    1.0-1.4 s instead of as soon as the head is read. The service allows exactly this script by
 *    its hash in the content security policy (docs/performance.md, "The staff page's data
 *    request from the head").
 *
 * 4. Preloads the app's start in index.html (`withBootPreloads`).
 *
 * `precompressDirectory`, `pageEntryPoints`, `pageChunks`, `withBootPreloads` and `inlineEarlyScript` are exported for tests.
 */
import {
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Files worth compressing; images other than SVG and fonts are compressed already. */
export const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.svg',
  '.json',
  '.txt',
  '.map',
  '.xml',
  '.webmanifest',
  '.ico',
]);
export const PAGE_CHUNKS_FILE = 'page-chunks.json';

/** The one page list (libs/contract/src/lib/pages.ts): JSON, so this script reads it as the apps do. */
const PAGE_LIST = fileURLToPath(new URL('../../libs/contract/src/lib/pages.json', import.meta.url));

/**
 * Each page route's component, as app.routes.ts loads it: `frontend/src/app/<name>/<name>-page.ts`
 * for every page of the list. A page without that file fails the build here (`pageChunks`).
 */
export function pageEntryPoints(pages = JSON.parse(readFileSync(PAGE_LIST, 'utf8'))) {
  return Object.fromEntries(
    pages.map(({ name, path }) => [path, `frontend/src/app/${name}/${name}-page.ts`]),
  );
}

function filesUnder(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** Compresses every compressible file under `directory`; returns bytes raw, Brotli and gzip. */
export function precompressDirectory(directory) {
  const totals = { files: 0, raw: 0, br: 0, gz: 0 };
  for (const path of filesUnder(directory)) {
    if (path.endsWith('.br') || path.endsWith('.gz')) {
      // A variant without its original is left over from an earlier build.
      if (!existsSync(path.slice(0, -3))) unlinkSync(path);
      continue;
    }
    if (!COMPRESSIBLE.has(extname(path)) || path.endsWith(PAGE_CHUNKS_FILE)) continue;
    const raw = readFileSync(path);
    const br = brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    });
    const gz = gzipSync(raw, { level: 9 });
    totals.files += 1;
    totals.raw += raw.length;
    for (const [suffix, bytes] of [
      ['.br', br],
      ['.gz', gz],
    ]) {
      const variant = `${path}${suffix}`;
      if (bytes.length < raw.length) {
        writeFileSync(variant, bytes);
        totals[suffix.slice(1)] += bytes.length;
      } else {
        if (existsSync(variant)) unlinkSync(variant);
        totals[suffix.slice(1)] += raw.length;
      }
    }
  }
  return totals;
}

/** The app's start (main.ts imports it when the app should run: docs/performance.md). */
const BOOT_ENTRY_POINT = 'frontend/src/page-start/boot.ts';

/**
 * `{ '*': ['chunk-A.js', ...], '/': [...], ... }`: `'*'`, the app's start (`BOOT_ENTRY_POINT`)
 * with every chunk it imports statically, which every page runs; for each page route, the code
 * its page runs beyond that and beyond what index.html loads itself: the chunk holding the
 * page's component with its static imports and its own dynamic ones.
 */
export function pageChunks(
  metafile,
  browserDirectory,
  entryPoints = pageEntryPoints(),
  bootEntryPoint = BOOT_ENTRY_POINT,
) {
  // The Angular builder writes output paths relative to the browser folder.
  // The metafile also lists the server bundle's chunks (`.mjs`, in `<dist>/server`): only the browser's count.
  const byName = new Map(
    Object.entries(metafile.outputs).filter(([name]) => existsSync(join(browserDirectory, name))),
  );
  const initial = new Set();
  const html = readFileSync(join(browserDirectory, 'index.html'), 'utf8');
  for (const [, file] of html.matchAll(/(?:src|href)="([^"]+\.js)"/g)) initial.add(file);
  const chunkOf = (entryPoint, route) => {
    const found = [...byName].find(([, output]) => output.entryPoint === entryPoint);
    if (!found)
      throw new Error(
        `no chunk has the entry point ${entryPoint} (${route}): update tools/build/precompress.mjs`,
      );
    return found[0];
  };
  /** `start` and what it imports statically; with `ownDynamic`, also what `start` itself imports dynamically. */
  const graphOf = (start, ownDynamic) => {
    const chunks = [];
    const pending = [start];
    while (pending.length > 0) {
      const chunk = pending.shift();
      if (chunks.includes(chunk) || initial.has(chunk)) continue;
      chunks.push(chunk);
      for (const imported of byName.get(chunk)?.imports ?? []) {
        if (imported.external) continue;
        // The page's own dynamic imports (the report's animation engine) are needed for its first view too.
        if (
          imported.kind === 'import-statement' ||
          (ownDynamic && chunk === start && imported.kind === 'dynamic-import')
        ) {
          pending.push(imported.path);
        }
      }
    }
    return chunks;
  };
  const boot = graphOf(chunkOf(bootEntryPoint, "the app's start"), false);
  const result = { '*': boot };
  for (const [route, entryPoint] of Object.entries(entryPoints)) {
    result[route] = graphOf(chunkOf(entryPoint, `route ${route}`), true).filter(
      (chunk) => !boot.includes(chunk),
    );
  }
  return result;
}

/**
 * index.html with the app's start preloaded where the builder puts its own module preloads, just
 * before main.js: main.ts imports the app's start at once on a browser-rendered page, and without
 * these the browser would learn of it only once main.js had run. After the head's early data
 * request, so that request is not queued behind the code on a slow line. `integrity` gives each
 * file's subresource integrity value, as the builder writes it for its own.
 */
export function withBootPreloads(html, chunks, integrity) {
  const main = /<script src="main-[\w-]*\.js"/.exec(html);
  if (!main) throw new Error('index.html links no main-*.js: update tools/build/precompress.mjs');
  const links = chunks
    .filter((chunk) => !html.includes(`href="${chunk}"`))
    .map((chunk) => `<link rel="modulepreload" href="${chunk}" integrity="${integrity(chunk)}">`)
    .join('');
  return `${html.slice(0, main.index)}${links}${html.slice(main.index)}`;
}

const EARLY_SCRIPT = /<script src="(early-staff-request-[\w-]*\.js)"[^>]*><\/script>/;

/**
 * The page with its early script's text inline just before its stylesheet (after `<base href>`;
 * before `</head>` when there is no stylesheet), instead of linked at the end of the body;
 * unchanged when it links none. `read` gives a file's text by its name in the page. The script
 * only starts a request and touches nothing in the page, so it may run while the head is read.
 */
export function inlineEarlyScript(html, read) {
  const found = EARLY_SCRIPT.exec(html);
  if (!found) return html;
  const source = read(found[1]).trim();
  if (/<\/script/i.test(source)) throw new Error(`${found[1]} cannot be inlined: it holds "</script"`);
  const without = html.slice(0, found.index) + html.slice(found.index + found[0].length);
  const stylesheet = /<link rel="stylesheet"/.exec(without);
  const headEnd = without.indexOf('</head>');
  const at = stylesheet && (headEnd === -1 || stylesheet.index < headEnd) ? stylesheet.index : headEnd;
  if (at === -1) return html;
  return `${without.slice(0, at)}<script>${source}</script>${without.slice(at)}`;
}

function main(distDirectory) {
  const browser = join(distDirectory, 'browser');
  const stats = join(distDirectory, 'stats.json');
  // With a server entry the builder names the browser's page index.csr.html (so a static host
  // would not serve it in place of the server's render); the service and the tools know it as
  // index.html, the page every route gets when it is not rendered on the server.
  if (existsSync(join(browser, 'index.csr.html')))
    renameSync(join(browser, 'index.csr.html'), join(browser, 'index.html'));
  if (!existsSync(join(browser, 'index.html'))) throw new Error(`${browser} holds no built app`);
  const index = readFileSync(join(browser, 'index.html'), 'utf8');
  writeFileSync(
    join(browser, 'index.html'),
    inlineEarlyScript(index, (file) => readFileSync(join(browser, file), 'utf8')),
  );
  if (existsSync(stats)) {
    const chunks = pageChunks(JSON.parse(readFileSync(stats, 'utf8')), browser);
    writeFileSync(join(browser, PAGE_CHUNKS_FILE), `${JSON.stringify(chunks, null, 2)}\n`);
    const integrity = (file) =>
      `sha384-${createHash('sha384')
        .update(readFileSync(join(browser, file)))
        .digest('base64')}`;
    const page = readFileSync(join(browser, 'index.html'), 'utf8');
    writeFileSync(join(browser, 'index.html'), withBootPreloads(page, chunks['*'], integrity));
  }
  const totals = precompressDirectory(browser);
  const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
  console.log(
    `precompressed ${totals.files} files: ${kB(totals.raw)} raw, ${kB(totals.br)} Brotli, ${kB(totals.gz)} gzip` +
      (existsSync(stats) ? `; page chunks in ${PAGE_CHUNKS_FILE}` : ''),
  );
  return totals;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const target = process.argv[2];
  if (!target || !statSync(target).isDirectory()) {
    console.error('usage: node tools/build/precompress.mjs <dist/frontend>');
    process.exit(2);
  }
  main(target);
}
