import type { PageContext, PageDataAnswer } from '@checkin/contract';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

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
  // An ES module, from the CommonJS service: a real import(), which webpack must leave alone.
  const entry = import(/* webpackIgnore: true */ pathToFileURL(entryPath).href) as Promise<ServerEntry>;
  // Loading starts at start-up; a failure surfaces on the first render (which then falls back).
  entry.catch(() => undefined);
  return async ({ url, nonce, pageData, context }) =>
    (await entry).renderPage({ document, url, nonce, pageData, context });
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
