import { LATER_CODE_ELEMENT_ID, type PageContext, type PageDataAnswer } from '@checkin/contract';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pageKind } from './page-table';

/** What the front end's server entry (frontend/src/main.server.ts) exports. */
interface ServerEntry {
  renderPage(request: {
    document: string;
    url: string;
    nonce: string;
    pageData: PageDataAnswer | null;
    context: PageContext;
  }): Promise<string>;
}

export interface PageRenderRequest {
  url: string;
  nonce: string;
  pageData: PageDataAnswer | null;
  context: PageContext;
}

export type PageRenderer = (request: PageRenderRequest) => Promise<string>;

/**
 * The front end's server build (`<dist>/server`, beside `<dist>/browser`): its entry, imported
 * once, and the page template the build wrote for it. Null when the build has none (a front end
 * built without its server entry, or the tests' hand-made `browser` folder): every page is then
 * the browser-rendered index.html, as before server rendering.
 */
export function loadPageRenderer(browserRoot: string): PageRenderer | null {
  const serverRoot = join(browserRoot, '..', 'server');
  const entryPath = join(serverRoot, 'main.server.mjs');
  const templatePath = join(serverRoot, 'index.server.html');
  if (!existsSync(entryPath) || !existsSync(templatePath)) return null;
  const document = withoutStaffScripts(
    withStylesheetsInlined(readFileSync(templatePath, 'utf8'), browserRoot),
  );
  const startPath = join(browserRoot, RENDERED_PAGE_START_FILE);
  const ownerPage = existsSync(startPath)
    ? withEntryAfterPaint(document, readFileSync(startPath, 'utf8'))
    : null;
  // An ES module, from the CommonJS service: a real import(), which webpack must leave alone.
  const entry = import(/* webpackIgnore: true */ pathToFileURL(entryPath).href) as Promise<ServerEntry>;
  // Loading starts at start-up; a failure surfaces on the first render (which then falls back).
  entry.catch(() => undefined);
  return async ({ url, nonce, pageData, context }) => {
    const pathname = new URL(url, 'http://page').pathname;
    if (ownerPage === null || pageKind(pathname) !== 'owner')
      return (await entry).renderPage({ document, url, nonce, pageData, context });
    const html = await (
      await entry
    ).renderPage({ document: ownerPage.document, url, nonce, pageData, context });
    return withLaterCode(html, ownerPage.entryCode);
  };
}

/**
 * The rendered owner pages' inline start (frontend/src/page-start/rendered-page-start.js), which
 * the front end's build writes under this name without injecting it into any page.
 */
export const RENDERED_PAGE_START_FILE = 'rendered-page-start.js';

/** The app's entry script and the module preloads the builder writes for it. */
const ENTRY_SCRIPT = /<script src="main-[\w-]*\.js"[^>]*><\/script>/;
const ENTRY_PRELOADS = /<link rel="modulepreload"[^>]*>/g;
/** A built file named relative to the page (`href="chunk-A.js"`, `src="main-B.js"`). */
const BUILT_FILE_ADDRESS = /(\s(?:href|src)=")([\w.-]+\.js")/g;

/**
 * An owner page's template with its entry script (main.js) and that script's module preloads
 * taken out, to go into the page's inert later-code template (`entryCode`), and the page's
 * inline start (`startSource`) at the end of its head, which puts them into the page once it has
 * been painted or at the owner's first action (docs/performance.md, "The app starts when the
 * owner acts"). Null, the page then keeping its entry as the builder wrote it, when the template
 * links no entry or the start's text could close its element.
 */
export function withEntryAfterPaint(
  document: string,
  startSource: string,
): { document: string; entryCode: string } | null {
  const entryScript = ENTRY_SCRIPT.exec(document)?.[0];
  const headEnd = document.indexOf('</head>');
  if (entryScript === undefined || headEnd === -1 || /<\/script/i.test(startSource)) return null;
  const preloads = document.match(ENTRY_PRELOADS) ?? [];
  const withStart = `${document.slice(0, headEnd)}<script>${startSource.trim()}</script>${document.slice(headEnd)}`;
  return {
    document: withStart.replace(ENTRY_SCRIPT, '').replace(ENTRY_PRELOADS, ''),
    // From the site's root, as the page's own chunks are named in the template (`static-site.ts`).
    entryCode: `${preloads.join('')}${entryScript}`.replace(BUILT_FILE_ADDRESS, '$1/$2'),
  };
}

/**
 * `code` (module preloads, the entry script) added to the page's inert `<template>` of later code,
 * made at the end of its head when the page has none: a template's elements are neither fetched
 * nor run until the page's own code moves them into the document (docs/performance.md, "The app
 * starts when the owner acts").
 */
export function withLaterCode(html: string, code: string): string {
  if (code === '') return html;
  const opening = `<template id="${LATER_CODE_ELEMENT_ID}">`;
  const existing = html.indexOf(opening);
  if (existing !== -1) {
    const closing = html.indexOf('</template>', existing);
    return `${html.slice(0, closing)}${code}${html.slice(closing)}`;
  }
  const headEnd = html.indexOf('</head>');
  if (headEnd === -1) return html;
  return `${html.slice(0, headEnd)}${opening}${code}</template>${html.slice(headEnd)}`;
}

/** `<link rel="stylesheet" href="styles-….css" …>` as the build writes it into the template. */
const STYLESHEET_LINK = /<link rel="stylesheet" href="([\w.-]+\.css)"[^>]*>/g;

/**
 * The global stylesheet (3 kB, 1 kB Brotli) put inside the rendered page instead of linked: a
 * linked stylesheet blocks the first paint until its own request has come back, which on a slow
 * phone's connection is a second round trip competing with the page's script downloads
 * (docs/performance.md, "Server-rendered owner pages"). The browser-rendered index.html keeps the
 * link (cached for good by its hashed name). main.server.ts gives the element the response's nonce.
 */
export function withStylesheetsInlined(document: string, browserRoot: string): string {
  return document.replace(STYLESHEET_LINK, (link, file: string) => {
    const path = join(browserRoot, file);
    if (!existsSync(path)) return link;
    const css = readFileSync(path, 'utf8');
    // Our own build's CSS; still, text that could close the element stays a link.
    return /<\/style/i.test(css) ? link : `<style>${css}</style>`;
  });
}

/** The staff page's early data request (frontend/src/page-start/early-staff-request.js), as the build injects it. */
const STAFF_SCRIPT = /<script src="early-staff-request-[\w-]*\.js"[^>]*><\/script>/g;

/**
 * The rendered pages are the owner pages, never the staff page: the script that starts the staff
 * page's request would only cost them a request and a task before their first paint.
 */
export function withoutStaffScripts(document: string): string {
  return document.replace(STAFF_SCRIPT, '');
}
