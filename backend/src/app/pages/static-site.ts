import { Logger } from '@nestjs/common';
import { type PageContext, type PageDataAnswer, pageDataUrl } from '@checkin/contract';
import type { NextFunction, Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { chooseEncoding, compressBody, type ContentCoding } from './content-encoding';
import type { PageReadLimiter } from '../rate-limit/reads-throttler.guard';
import { GlobalExceptionFilter } from '../errors/global-exception.filter';
import { AppError } from '../errors/app-error';
import type { PageDataReader } from './page-data';
import { type PageRenderer, withLaterCode } from './page-renderer';
import { isRenderedPage, pageStatus, readsData } from './page-table';
import { refusalPage } from './refusal-page';

/** Written by tools/build/precompress.mjs: each page route's lazy chunks. Not served. */
export const PAGE_CHUNKS_FILE = 'page-chunks.json';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

interface Representation {
  body: Buffer;
  etag: string;
}

interface StaticFile {
  contentType: string;
  cacheControl: string;
  identity: Representation;
  /** Precompressed at build time; absent when the build wrote none. */
  encoded: Partial<Record<ContentCoding, Representation>>;
}

function representation(body: Buffer): Representation {
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * The built front end, read into memory once at start-up (well under a megabyte per coding), so
 * a request costs no file system call. URL path → file.
 */
function loadStaticFiles(root: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (!existsSync(root)) return files;
  const all = new Set(filesUnder(root));
  for (const path of all) {
    if (path.endsWith('.br') || path.endsWith('.gz') || path === join(root, PAGE_CHUNKS_FILE)) continue;
    const encoded: StaticFile['encoded'] = {};
    if (all.has(`${path}.br`)) encoded.br = representation(readFileSync(`${path}.br`));
    if (all.has(`${path}.gz`)) encoded.gzip = representation(readFileSync(`${path}.gz`));
    const urlPath = `/${relative(root, path).split(sep).join('/')}`;
    files.set(urlPath, {
      contentType: CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
      // Hashed bundles may be cached for good. The page is answered with the owner's link in its
      // `Link` preload header, so no shared cache may keep it (docs/decisions.md, "Owner pages").
      cacheControl: path.endsWith('.html') ? 'private, no-store' : 'public, max-age=31536000, immutable',
      identity: representation(readFileSync(path)),
      encoded,
    });
  }
  return files;
}

function loadPageChunks(root: string): Map<string, string[]> {
  const path = join(root, PAGE_CHUNKS_FILE);
  if (!existsSync(path)) return new Map();
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const chunks = new Map<string, string[]>();
  if (typeof parsed !== 'object' || parsed === null) return chunks;
  for (const [route, list] of Object.entries(parsed)) {
    if (Array.isArray(list))
      chunks.set(
        route,
        list.filter((item): item is string => typeof item === 'string'),
      );
  }
  return chunks;
}

/**
 * All the code a rendered page runs beyond main.js: the app's start (`*`, which the browser-rendered
 * index.html preloads itself), then the page's own.
 */
function renderedPageChunks(pageChunks: Map<string, string[]>, pathname: string): string[] {
  return [...(pageChunks.get('*') ?? []), ...(pageChunks.get(pathname) ?? [])];
}

/**
 * The page's `Link` header: its own code as module preloads (index.html preloads the app's start
 * itself), and, on an owner page opened
 * with its link, the data request as a fetch preload (same mode and credentials as the app's
 * `fetch`, which then reuses the answer). The staff page's data needs its key in a header, which
 * a preload cannot send, and the key must never appear in a URL: it gets no data preload.
 */
function pageLinkHeader(pathname: string, search: string, chunks: readonly string[]): string | null {
  const links = chunks.map((chunk) => `</${chunk}>; rel=modulepreload`);
  const dataUrl = pageDataUrl(pathname, search);
  if (dataUrl !== null) links.unshift(`<${dataUrl}>; rel=preload; as=fetch; crossorigin`);
  return links.length > 0 ? links.join(', ') : null;
}

/**
 * The content security policy sources of the built index.html's inline scripts (`'sha256-…'`):
 * the staff page's early data request, which tools/build/precompress.mjs puts in the head so it
 * starts while the head is read (docs/performance.md, "The staff page's data request from the
 * head"). The policy allows exactly these scripts; none when there is no build.
 */
export function inlineScriptSources(root: string): string[] {
  const path = join(root, 'index.html');
  if (!existsSync(path)) return [];
  return [...readFileSync(path, 'utf8').matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, source]) =>
      `'sha256-${createHash('sha256')
        .update(source ?? '', 'utf8')
        .digest('base64')}'`,
  );
}

/** Where bootstrap.ts leaves this response's CSP nonce (`response.locals`). */
export const CSP_NONCE_LOCAL = 'cspNonce';

/** What renders the pages `isRenderedPage` names. */
export interface ServerRendering {
  render: PageRenderer;
  readPageData: PageDataReader;
  /** The reads rate limit: every page load counts as one read (docs/decisions.md, "Limits"). */
  limitRead: PageReadLimiter;
  /** Whom to contact and the zone of dates, handed to every page (absent: none named, the reader's zone). */
  pageContext?: () => Promise<PageContext>;
}

const NO_CONTEXT: PageContext = { organizer: { name: null, email: null }, timeZone: null };

/**
 * Serves the built front end: its files, Brotli or gzip precompressed when the browser accepts
 * it (never compressed per request), with `Vary: Accept-Encoding`, a strong ETag per coding and
 * 304 on a match; the owner pages rendered on the server when `serverRendering` is given;
 * index.html for every other GET outside /api (the app's own routes), with the page's `Link`
 * preloads. Anything else goes on to Nest (the API, or its 404).
 */
export function staticSite(
  root: string,
  serverRendering: ServerRendering | null = null,
  /** Counts every page load against the reads limit; the rendering's own when not given. */
  limitPageLoad: PageReadLimiter | null = serverRendering?.limitRead ?? null,
  pageContext: () => Promise<PageContext> = serverRendering?.pageContext ??
    (() => Promise.resolve(NO_CONTEXT)),
) {
  const files = loadStaticFiles(root);
  const pageChunks = loadPageChunks(root);
  const index = files.get('/index.html');
  const logger = new Logger('Pages');
  const refusals = new GlobalExceptionFilter();
  return (request: Request, response: Response, next: NextFunction): void => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || index === undefined) return next();
    const queryStart = request.url.indexOf('?');
    const pathname = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
    // /metrics is the metrics controller's (metrics/metrics.controller.ts), not a page.
    if (pathname === '/api' || pathname.startsWith('/api/') || pathname === '/metrics') return next();
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      decoded = pathname;
    }
    const file = decoded === '/index.html' ? undefined : files.get(decoded);
    if (file !== undefined) return send(request, response, file);
    const search = queryStart === -1 ? '' : request.url.slice(queryStart);
    // A page, not a file: each load counts against the reads limit, as an API read does.
    const limited = limitPageLoad === null ? Promise.resolve() : limitPageLoad(request);
    limited
      .then(
        () => answerPage(request, response, decoded, search),
        (error: unknown) => refuse(request, response, error, refusals, pageContext),
      )
      .catch((error: unknown) => {
        logger.error(
          `answering ${decoded} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
        if (!response.headersSent) response.status(500);
        response.end();
      });
  };

  async function answerPage(
    request: Request,
    response: Response,
    decoded: string,
    search: string,
  ): Promise<void> {
    const nonce: unknown = response.locals[CSP_NONCE_LOCAL];
    if (serverRendering !== null && isRenderedPage(decoded, search) && typeof nonce === 'string') {
      const chunks = renderedPageChunks(pageChunks, decoded);
      const page = { pathname: decoded, search, nonce, chunks, fallback: index as StaticFile };
      return renderPage(request, response, serverRendering, page, pageContext, logger).catch(
        (error: unknown) => {
          // The page still works rendered in the browser: log, and send that instead.
          logger.error(
            `rendering ${decoded} failed: ${error instanceof Error ? error.message : String(error)}`,
          );
          if (response.headersSent) return void response.end();
          const link = pageLinkHeader(decoded, search, pageChunks.get(decoded) ?? []);
          if (link !== null) response.setHeader('Link', link);
          send(request, response, index as StaticFile);
        },
      );
    }
    const link = pageLinkHeader(decoded, search, pageChunks.get(decoded) ?? []);
    if (link !== null) response.setHeader('Link', link);
    // Browser-rendered: the page asks for its own data; an address that is no page says so in 404.
    const status = pageStatus(decoded, null) === 404 ? 404 : 200;
    send(request, response, index as StaticFile, status);
  }
}

interface RenderedPage {
  pathname: string;
  search: string;
  nonce: string;
  chunks: readonly string[];
  /** The browser-rendered index.html, sent instead when rendering fails. */
  fallback: StaticFile;
}

/**
 * A page with its data in it. Personal (its data; an owner page's checksum in the transfer state)
 * and made for this response alone (its nonce): `private, no-store`, no validator. The
 * page's code is named inside it for later (`withLaterCode`); its data is inside, so no data
 * preload.
 *
 * The status and headers go out before the data is read and the page rendered (the body follows
 * chunked): the browser sets up the new page while the service waits for the CRM and renders,
 * instead of after (docs/performance.md, "Server-rendered owner
 * pages"). A page that then fails to render is sent as the browser-rendered index.html in the
 * same coding, which loads its data itself.
 */
async function renderPage(
  request: Request,
  response: Response,
  { render, readPageData }: ServerRendering,
  { pathname, search, nonce, chunks, fallback }: RenderedPage,
  pageContext: () => Promise<PageContext>,
  logger: Logger,
): Promise<void> {
  const coding = chooseEncoding(request.headers['accept-encoding']);
  response.vary('Accept-Encoding');
  response.setHeader('Content-Type', CONTENT_TYPES['.html'] ?? 'text/html');
  response.setHeader('Cache-Control', 'private, no-store');
  let pageData: PageDataAnswer | null = null;
  let html: Buffer;
  try {
    const [data, context] = await Promise.all([
      readsData(pathname, search) ? readPageData(pathname, search, request) : Promise.resolve(null),
      pageContext(),
    ]);
    pageData = data;
    // The status the page's data route answers: known only once the data is read, so the
    // headers wait for it (docs/decisions.md, "Page statuses").
    response.status(pageStatus(pathname, pageData));
    if (pageData?.retryAfterSeconds !== undefined)
      response.setHeader('Retry-After', String(pageData.retryAfterSeconds));
    if (coding !== null) response.setHeader('Content-Encoding', coding);
    if (request.method === 'HEAD') return void response.end();
    response.flushHeaders();
    const rendered = await render({ url: `${pathname}${search}`, nonce, pageData, context });
    html = Buffer.from(withLaterCode(rendered, laterCodePreloads(chunks)), 'utf8');
  } catch (error: unknown) {
    logger.error(`rendering ${pathname} failed: ${error instanceof Error ? error.message : String(error)}`);
    if (response.destroyed) return;
    if (!response.headersSent) {
      response.status(pageStatus(pathname, pageData));
      if (coding !== null) response.setHeader('Content-Encoding', coding);
      if (request.method === 'HEAD') return void response.end();
    }
    const { identity, encoded } = fallback;
    const body =
      coding === null ? identity.body : (encoded[coding]?.body ?? compressBody(identity.body, coding));
    return void response.end(body);
  }
  if (response.destroyed) return;
  response.end(coding === null ? html : compressBody(html, coding));
}

/** The page's own code as module preloads, for its inert later-code template (`withLaterCode`). */
function laterCodePreloads(chunks: readonly string[]): string {
  return chunks.map((chunk) => `<link rel="modulepreload" href="/${chunk}">`).join('');
}

/**
 * A page load refused before any rendering (over the reads limit, or its counters unreachable):
 * the error body as JSON to a client that asks for JSON, otherwise a small page saying the same
 * with whom to contact (refusal-page.ts), in both cases with the error's status and
 * `Retry-After`, never rendered and never cached.
 */
async function refuse(
  request: Request,
  response: Response,
  error: unknown,
  refusals: GlobalExceptionFilter,
  pageContext: () => Promise<PageContext>,
): Promise<void> {
  const body = refusals.toBody(error, request);
  if (response.headersSent) return void response.end();
  if (error instanceof AppError && error.extra.retryAfterSeconds !== undefined)
    response.setHeader('Retry-After', String(error.extra.retryAfterSeconds));
  response.setHeader('Cache-Control', 'private, no-store');
  response.vary('Accept');
  if (request.accepts(['html', 'json']) === 'json') {
    response.status(body.statusCode).json(body);
    return;
  }
  const { organizer } = await pageContext().catch(() => NO_CONTEXT);
  const html = Buffer.from(refusalPage(body.message, organizer), 'utf8');
  response.setHeader('Content-Type', CONTENT_TYPES['.html'] ?? 'text/html');
  response.setHeader('Content-Length', html.length);
  response.status(body.statusCode).end(request.method === 'HEAD' ? undefined : html);
}

function send(request: Request, response: Response, file: StaticFile, status = 200): void {
  const coding = chooseEncoding(request.headers['accept-encoding']);
  const encoded = coding === null ? undefined : file.encoded[coding];
  const chosen = encoded ?? file.identity;
  if (Object.keys(file.encoded).length > 0) response.vary('Accept-Encoding');
  response.setHeader('Content-Type', file.contentType);
  response.setHeader('Cache-Control', file.cacheControl);
  response.setHeader('ETag', chosen.etag);
  if (encoded !== undefined && coding !== null) response.setHeader('Content-Encoding', coding);
  if (status === 200 && matchesEtag(request.headers['if-none-match'], chosen.etag)) {
    response.status(304).end();
    return;
  }
  response.setHeader('Content-Length', chosen.body.length);
  if (request.method === 'HEAD') response.status(status).end();
  else response.status(status).end(chosen.body);
}

function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag || trimmed === `W/${etag}`;
  });
}
