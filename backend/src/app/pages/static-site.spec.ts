import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { PageDataAnswer } from '@checkin/contract';
import { Errors } from '../errors/app-error';
import type { PageRenderRequest } from './page-renderer';
import { CSP_NONCE_LOCAL, PAGE_CHUNKS_FILE, type ServerRendering, staticSite } from './static-site';

const INDEX_HTML = '<!doctype html><html><body><app-root>Loading…</app-root></body></html>';
const OWNER_PAGE = '/?contactId=102&orgId=101&cid=102&cs=demo';

/** A page render the test completes (or fails) when it chooses. */
function heldRenderer() {
  let finish: (html: string) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const requests: PageRenderRequest[] = [];
  const render = (request: PageRenderRequest): Promise<string> => {
    requests.push(request);
    return new Promise<string>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
  };
  return { render, requests, finish: (html: string) => finish(html), fail: (error: Error) => fail(error) };
}

/** The site on the Express the service runs on (Nest's adapter), without the rest of the application. */
async function serveStaticSite(root: string, rendering: ServerRendering): Promise<Server> {
  const app = new ExpressAdapter().getInstance<Express>();
  app.use((_request, response, next) => {
    response.locals[CSP_NONCE_LOCAL] = 'nonce-for-this-answer';
    next();
  });
  app.use(staticSite(root, rendering));
  return new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
}

function get(server: Server, path: string, headers: Record<string, string> = {}) {
  const { port } = server.address() as AddressInfo;
  return new Promise<IncomingMessage>((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port, path, headers }, resolve).on('error', reject).end();
  });
}

function bodyOf(answer: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    answer.on('data', (part: Buffer) => parts.push(part));
    answer.on('end', () => resolve(Buffer.concat(parts)));
    answer.on('error', reject);
  });
}

describe('server-rendered owner pages: headers before the page', () => {
  let root: string;
  let server: Server;
  let renderer: ReturnType<typeof heldRenderer>;
  const pageData: PageDataAnswer = { url: '/api/data?x', status: 200, body: {} };

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'checkin-static-'));
    writeFileSync(join(root, 'index.html'), INDEX_HTML);
    writeFileSync(
      join(root, PAGE_CHUNKS_FILE),
      JSON.stringify({ '*': ['chunk-BOOT.js'], '/': ['chunk-FORM.js'] }),
    );
    renderer = heldRenderer();
    const rendering: ServerRendering = {
      render: renderer.render,
      readPageData: () => Promise.resolve(pageData),
      limitRead: () => Promise.resolve(),
    };
    server = await serveStaticSite(root, rendering);
  });

  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  it('sends the headers while the page is rendered, then the page with its code named for later, inert', async () => {
    const answer = await get(server, OWNER_PAGE, { 'Accept-Encoding': 'br' });
    // The headers have arrived and the render has not finished: the browser can set up the page.
    expect(renderer.requests).toHaveLength(1);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['cache-control']).toBe('private, no-store');
    // Nothing the browser would fetch at once, ahead of the page itself.
    expect(answer.headers['link']).toBeUndefined();
    expect(answer.headers['etag']).toBeUndefined();
    renderer.finish('<!doctype html><html><head><title>t</title></head><body><p>rendered</p></body></html>');
    expect(brotliDecompressSync(await bodyOf(answer)).toString('utf8')).toBe(
      '<!doctype html><html><head><title>t</title>' +
        '<template id="checkin-later-code"><link rel="modulepreload" href="/chunk-BOOT.js">' +
        '<link rel="modulepreload" href="/chunk-FORM.js"></template>' +
        '</head><body><p>rendered</p></body></html>',
    );
    expect(renderer.requests[0]).toEqual({
      url: OWNER_PAGE,
      nonce: 'nonce-for-this-answer',
      pageData,
      context: { organizer: { name: null, email: null }, timeZone: null },
    });
  });

  it('sends the browser-rendered page in the same coding when rendering fails after the headers', async () => {
    const answer = await get(server, OWNER_PAGE, { 'Accept-Encoding': 'br' });
    expect(answer.headers['content-encoding']).toBe('br');
    renderer.fail(new Error('render failed'));
    expect(brotliDecompressSync(await bodyOf(answer)).toString('utf8')).toBe(INDEX_HTML);
  });

  it('answers HEAD with the headers alone, without rendering', async () => {
    const { port } = server.address() as AddressInfo;
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port, path: OWNER_PAGE, method: 'HEAD' }, resolve)
        .on('error', reject)
        .end();
    });
    expect(answer.statusCode).toBe(200);
    expect((await bodyOf(answer)).length).toBe(0);
    expect(renderer.requests).toHaveLength(0);
  });
});

describe('page statuses and the page-load limit', () => {
  let root: string;
  let server: Server;
  let answerOfData: PageDataAnswer;
  let loads: string[];
  let refuseLoads: boolean;

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'checkin-static-'));
    writeFileSync(join(root, 'index.html'), INDEX_HTML);
    writeFileSync(join(root, 'main.js'), 'void 0;');
    loads = [];
    refuseLoads = false;
    const rendering: ServerRendering = {
      render: () => Promise.resolve('<!doctype html><html><head></head><body>page</body></html>'),
      readPageData: () => Promise.resolve(answerOfData),
      limitRead: (request) => {
        loads.push(request.url);
        return refuseLoads ? Promise.reject(Errors.rateLimited(42)) : Promise.resolve();
      },
      pageContext: () =>
        Promise.resolve({ organizer: { name: 'Sam Rivera', email: 'sam@example.org' }, timeZone: 'UTC' }),
    };
    server = await serveStaticSite(root, rendering);
  });

  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  it('answers a rendered page with its data route’s status and Retry-After', async () => {
    answerOfData = { url: '/api/data?x', status: 401, body: { code: 'CHECKSUM_INVALID' } };
    expect((await get(server, OWNER_PAGE)).statusCode).toBe(401);
    answerOfData = {
      url: '/api/data?x',
      status: 503,
      body: { code: 'CRM_UNAVAILABLE' },
      retryAfterSeconds: 30,
    };
    const outage = await get(server, OWNER_PAGE);
    expect(outage.statusCode).toBe(503);
    expect(outage.headers['retry-after']).toBe('30');
  });

  it('answers an owner page without its link 401, and an address that is no page 404', async () => {
    expect((await get(server, '/report')).statusCode).toBe(401);
    const missing = await get(server, '/no-such-page');
    expect(missing.statusCode).toBe(404);
    expect((await bodyOf(missing)).toString('utf8')).toBe(INDEX_HTML);
    expect((await get(server, '/main.js')).statusCode).toBe(200);
  });

  it('counts every page load against the reads limit, never a file, and refuses with the page and Retry-After', async () => {
    await get(server, '/report');
    await get(server, '/staff');
    await get(server, '/no-such-page');
    await get(server, '/main.js');
    expect(loads).toEqual(['/report', '/staff', '/no-such-page']);
    refuseLoads = true;
    const refused = await get(server, '/', { Accept: 'text/html' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('42');
    const page = (await bodyOf(refused)).toString('utf8');
    expect(page).toContain('Too many requests');
    expect(page).toContain('contact Sam Rivera at <a href="mailto:sam@example.org">');
  });
});
