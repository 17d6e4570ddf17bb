import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  createDemoModel,
  DEMO_CHECKSUM,
  DEMO_ORG_ID,
  DEMO_PERSON_ID,
} from '../src/app/crm/in-memory/demo-data';
import { ownerQuery, startTestApp, TEST_STAFF_KEY, type TestApp, DEMO_LINK } from './support/test-app';

/**
 * Compression of every text answer, precompressed static files, and the pages' `Link` preloads.
 * The front end here is a small stand-in built in a temporary folder and precompressed by the
 * build's own tool (tools/build/precompress.mjs), so these tests do not need the Angular build.
 */

const ROOT = join(__dirname, '..', '..');
const PRECOMPRESS = join(ROOT, 'tools/build/precompress.mjs');
const INDEX_HTML = `<!doctype html><html lang="en"><head><title>Co-op check-in</title><base href="/"><link rel="stylesheet" href="styles-AAAA.css"></head><body><app-root></app-root>${'<!-- padding -->'.repeat(80)}<script src="early-staff-request-AAAA.js" defer="" crossorigin="anonymous"></script><script src="main-AAAA.js" type="module"></script></body></html>`;
/** Stands in for frontend/src/page-start/early-staff-request.js, which the build links with `defer`. */
const EARLY_SCRIPT = `(function () { window.__early = 'started'; })();\n`;
const MAIN_JS = `export const answer = ${JSON.stringify('lorem ipsum '.repeat(400))};\n`;
const PAGE_CHUNKS = {
  '/': ['chunk-FORM.js', 'chunk-SHARED.js'],
  '/report': ['chunk-REPORT.js'],
  '/staff': ['chunk-STAFF.js'],
  '*': ['chunk-BOOT.js'],
};

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Node's fetch decodes bodies itself and always asks for compression: plain node:http instead. */
function raw(
  service: TestApp,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${service.url}${path}`, { method, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () =>
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) }),
      );
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function decoded(answer: RawAnswer): string {
  const coding = answer.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(answer.body).toString('utf8');
  if (coding === 'gzip') return gunzipSync(answer.body).toString('utf8');
  return answer.body.toString('utf8');
}

function varyNames(answer: RawAnswer): string[] {
  return String(answer.headers['vary'] ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
}

describe('compression, precompressed static files and page preloads', () => {
  let dist: string;
  let service: TestApp;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'checkin-dist-'));
    const browser = join(dist, 'browser');
    mkdirSync(browser);
    writeFileSync(join(browser, 'index.html'), INDEX_HTML);
    writeFileSync(join(browser, 'main-AAAA.js'), MAIN_JS);
    writeFileSync(join(browser, 'early-staff-request-AAAA.js'), EARLY_SCRIPT);
    writeFileSync(join(browser, 'tiny.js'), 'export {};\n');
    writeFileSync(join(browser, 'page-chunks.json'), JSON.stringify(PAGE_CHUNKS));
    const build = spawnSync(process.execPath, [join(ROOT, 'tools/build/precompress.mjs'), dist], {
      encoding: 'utf8',
    });
    expect(build.stderr).toBe('');
    expect(build.status).toBe(0);
    service = await startTestApp({ emulator: { model: createDemoModel() }, env: { FRONTEND_DIST: browser } });
  });

  afterAll(async () => {
    await service?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  describe('static files', () => {
    it('sends the Brotli file made at build time when the browser accepts br', async () => {
      const answer = await raw(service, '/main-AAAA.js', { 'Accept-Encoding': 'gzip, deflate, br' });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe('br');
      expect(answer.body.equals(readFileSync(join(dist, 'browser', 'main-AAAA.js.br')))).toBe(true);
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      expect(answer.body.length).toBeLessThan(MAIN_JS.length / 10);
      expect(decoded(answer)).toBe(MAIN_JS);
      expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(varyNames(answer)).toContain('accept-encoding');
    });

    it('sends gzip when Brotli is not accepted, and the plain file when nothing is', async () => {
      const gzip = await raw(service, '/main-AAAA.js', { 'Accept-Encoding': 'gzip, br;q=0' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(decoded(gzip)).toBe(MAIN_JS);
      const plain = await raw(service, '/main-AAAA.js');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString('utf8')).toBe(MAIN_JS);
      // The plain answer must say it varies too, or a cache would keep it for every client.
      expect(varyNames(plain)).toContain('accept-encoding');
    });

    it('gives each coding its own ETag and answers a matching If-None-Match with 304', async () => {
      const br = await raw(service, '/main-AAAA.js', { 'Accept-Encoding': 'br' });
      const gzip = await raw(service, '/main-AAAA.js', { 'Accept-Encoding': 'gzip' });
      expect(br.headers['etag']).toBeDefined();
      expect(br.headers['etag']).not.toBe(gzip.headers['etag']);
      const again = await raw(service, '/main-AAAA.js', {
        'Accept-Encoding': 'br',
        'If-None-Match': String(br.headers['etag']),
      });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
    });

    it('leaves a file the build did not compress (too small to gain) as it is', async () => {
      const answer = await raw(service, '/tiny.js', { 'Accept-Encoding': 'br, gzip' });
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.body.toString('utf8')).toBe('export {};\n');
    });

    it('serves index.html compressed and uncached for the app routes, never the page-chunks list', async () => {
      const answer = await raw(service, '/report', { 'Accept-Encoding': 'br' });
      expect(answer.headers['content-encoding']).toBe('br');
      // The page carries the owner's link in its Link header: never kept by a shared cache.
      expect(answer.headers['cache-control']).toBe('private, no-store');
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      // The page as the build tool left it (its early script moved inline, below).
      const built = readFileSync(join(dist, 'browser', 'index.html'), 'utf8');
      expect(built).not.toBe(INDEX_HTML);
      expect(decoded(answer)).toBe(built);
      expect(decoded(await raw(service, '/page-chunks.json'))).toBe(built);
      const head = await raw(service, '/', { 'Accept-Encoding': 'br' }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(head.headers['content-length']).toBe(answer.headers['content-length']);
    });
  });

  describe('API answers', () => {
    it('compresses the JSON of GET /api/data with Brotli or gzip, as accepted', async () => {
      const path = `/api/data?${ownerQuery(DEMO_LINK)}`;
      const plain = await raw(service, path);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(varyNames(plain)).toContain('accept-encoding');
      const br = await raw(service, path, { 'Accept-Encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(Number(br.headers['content-length'])).toBe(br.body.length);
      expect(br.body.length).toBeLessThan(plain.body.length / 3);
      expect(JSON.parse(decoded(br))).toEqual(JSON.parse(plain.body.toString('utf8')));
      expect(br.headers['cache-control']).toBe('no-store');
      const gzip = await raw(service, path, { 'Accept-Encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(decoded(gzip))).toEqual(JSON.parse(plain.body.toString('utf8')));
    });

    it('leaves small answers such as error bodies uncompressed, still with Vary', async () => {
      const answer = await raw(service, `/api/data?${ownerQuery({ ...DEMO_LINK, cs: 'wrong' })}`, {
        'Accept-Encoding': 'br',
      });
      expect(answer.status).toBe(401);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(varyNames(answer)).toContain('accept-encoding');
      expect(JSON.parse(answer.body.toString('utf8'))).toMatchObject({ statusCode: 401 });
    });
  });

  describe('Link preloads on the pages', () => {
    it('names the form data request and the form page chunks on / opened with its link', async () => {
      const answer = await raw(service, `/?${ownerQuery(DEMO_LINK)}`);
      const dataUrl = `/api/data?contactId=${DEMO_PERSON_ID}&orgId=${DEMO_ORG_ID}&cid=${DEMO_PERSON_ID}&cs=${encodeURIComponent(DEMO_CHECKSUM)}`;
      expect(answer.headers['link']).toBe(
        `<${dataUrl}>; rel=preload; as=fetch; crossorigin, </chunk-FORM.js>; rel=modulepreload, </chunk-SHARED.js>; rel=modulepreload`,
      );
      // The preloaded URL answers as the app's own request would.
      const data = await raw(service, dataUrl);
      expect(data.status).toBe(200);
    });

    it('names the report request on /report, whatever order the link gives its parameters', async () => {
      const answer = await raw(service, `/report?cs=${DEMO_CHECKSUM}&cid=${DEMO_PERSON_ID}`);
      expect(answer.headers['link']).toBe(
        `</api/report?cid=${DEMO_PERSON_ID}&cs=${encodeURIComponent(DEMO_CHECKSUM)}>; rel=preload; as=fetch; crossorigin, </chunk-REPORT.js>; rel=modulepreload`,
      );
    });

    it('preloads no data without a checksum, and nothing on other paths', async () => {
      expect((await raw(service, `/?cid=${DEMO_PERSON_ID}`)).headers['link']).toBe(
        '</chunk-FORM.js>; rel=modulepreload, </chunk-SHARED.js>; rel=modulepreload',
      );
      expect((await raw(service, '/unknown?cid=1&cs=x')).headers['link']).toBeUndefined();
    });

    it('never puts the staff key in a hint: the staff page preloads its code only', async () => {
      const answer = await raw(service, `/staff?orgId=${DEMO_ORG_ID}&key=${TEST_STAFF_KEY}`);
      expect(answer.status).toBe(200);
      expect(answer.headers['link']).toBe('</chunk-STAFF.js>; rel=modulepreload');
      expect(JSON.stringify(answer.headers)).not.toContain(TEST_STAFF_KEY);
    });

    it("starts the staff page's early request from its head: inline, before the stylesheet, allowed by its hash", async () => {
      const answer = await raw(service, `/staff?orgId=${DEMO_ORG_ID}`, { 'Accept-Encoding': 'br' });
      const page = decoded(answer);
      const inline = `<script>${EARLY_SCRIPT.trim()}</script>`;
      expect(page).toContain(`<base href="/">${inline}<link rel="stylesheet"`);
      expect(page).not.toContain('early-staff-request-AAAA.js');
      const hash = createHash('sha256').update(EARLY_SCRIPT.trim(), 'utf8').digest('base64');
      const csp = String(answer.headers['content-security-policy']);
      expect(csp).toContain(`script-src 'self' 'sha256-${hash}';`);
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      // The API's answers carry the same policy, and the script is allowed by nothing looser.
      expect(String((await raw(service, '/api/health/live')).headers['content-security-policy'])).toBe(csp);
    });

    it('allows the preloads under the page CSP (same-origin fetch and scripts)', async () => {
      const csp = String(
        (await raw(service, `/?${ownerQuery(DEMO_LINK)}`)).headers['content-security-policy'],
      );
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("script-src 'self'");
    });
  });

  describe("the build's list of each page's code (tools/build/precompress.mjs, pageChunks)", () => {
    /** Runs `pageChunks` over a made-up metafile, in a browser folder holding its files. */
    function pageChunksOf(outputs: Record<string, unknown>, indexHtml: string): Record<string, string[]> {
      const browser = mkdtempSync(join(tmpdir(), 'checkin-chunks-'));
      try {
        writeFileSync(join(browser, 'index.html'), indexHtml);
        // The server bundle's outputs (`.mjs`) are in another folder, as the Angular build writes them.
        for (const name of Object.keys(outputs))
          if (!name.endsWith('.mjs')) writeFileSync(join(browser, name), '');
        const script = `import { pageChunks } from ${JSON.stringify(PRECOMPRESS)};
          const [metafile, browser] = JSON.parse(process.argv[1]);
          console.log(JSON.stringify(pageChunks(metafile, browser)));`;
        const run = spawnSync(
          process.execPath,
          ['--input-type=module', '-e', script, JSON.stringify([{ outputs }, browser])],
          { encoding: 'utf8' },
        );
        expect(run.stderr).toBe('');
        return JSON.parse(run.stdout) as Record<string, string[]>;
      } finally {
        rmSync(browser, { recursive: true, force: true });
      }
    }
    const statically = (path: string) => ({ path, kind: 'import-statement' });
    const dynamically = (path: string) => ({ path, kind: 'dynamic-import' });

    it("lists the app's start, then each page's own code beyond it, never what index.html loads itself", () => {
      const outputs = {
        // The server's build of the same page, listed first: not the browser's, so not the page's.
        'chunk-SERVERFORM.mjs': {
          entryPoint: 'frontend/src/app/form/form-page.ts',
          imports: [statically('chunk-SERVERONLY.mjs')],
        },
        'main-M.js': {
          entryPoint: 'frontend/src/main.ts',
          imports: [statically('chunk-SHARED.js'), dynamically('chunk-BOOT.js')],
        },
        'chunk-SHARED.js': { imports: [] },
        'chunk-BOOT.js': {
          entryPoint: 'frontend/src/page-start/boot.ts',
          imports: [
            statically('chunk-ANGULAR.js'),
            statically('chunk-SHARED.js'),
            dynamically('chunk-FORMPAGE.js'),
          ],
        },
        'chunk-ANGULAR.js': { imports: [] },
        'chunk-FORMPAGE.js': {
          entryPoint: 'frontend/src/app/form/form-page.ts',
          imports: [statically('chunk-ANGULAR.js'), statically('chunk-FORMS.js')],
        },
        'chunk-FORMS.js': { imports: [] },
        'chunk-REPORTPAGE.js': {
          entryPoint: 'frontend/src/app/report/report-page.ts',
          imports: [dynamically('chunk-ANIMATIONS.js'), statically('chunk-CHARTS.js')],
        },
        'chunk-CHARTS.js': { imports: [dynamically('chunk-LATER.js')] },
        'chunk-ANIMATIONS.js': { imports: [] },
        'chunk-LATER.js': { imports: [] },
        'chunk-STAFFPAGE.js': {
          entryPoint: 'frontend/src/app/staff/staff-page.ts',
          imports: [statically('chunk-ANGULAR.js')],
        },
      };
      const index =
        '<html><head><link rel="modulepreload" href="chunk-SHARED.js"></head><body><script src="main-M.js" type="module"></script></body></html>';
      const chunks = pageChunksOf(outputs, index);
      expect(chunks).toEqual({
        '*': ['chunk-BOOT.js', 'chunk-ANGULAR.js'],
        '/': ['chunk-FORMPAGE.js', 'chunk-FORMS.js'],
        // The page's own dynamic import is there; one made by what it imports is not.
        '/report': ['chunk-REPORTPAGE.js', 'chunk-ANIMATIONS.js', 'chunk-CHARTS.js'],
        '/staff': ['chunk-STAFFPAGE.js'],
      });
    });

    it("preloads the app's start in index.html before main.js, after the head's early request, with integrity", () => {
      const script = `import { withBootPreloads } from ${JSON.stringify(PRECOMPRESS)};
        const [html, chunks] = JSON.parse(process.argv[1]);
        console.log(withBootPreloads(html, chunks, (file) => 'sha384-of-' + file));`;
      const html =
        '<head><script>early()</script></head><body><app-root></app-root>' +
        '<link rel="modulepreload" href="chunk-SHARED.js" integrity="x"><script src="main-M.js" type="module"></script></body>';
      const run = spawnSync(
        process.execPath,
        ['--input-type=module', '-e', script, JSON.stringify([html, ['chunk-BOOT.js', 'chunk-SHARED.js']])],
        { encoding: 'utf8' },
      );
      expect(run.stderr).toBe('');
      // A chunk the builder already preloads is not named twice.
      expect(run.stdout.trim()).toBe(
        '<head><script>early()</script></head><body><app-root></app-root>' +
          '<link rel="modulepreload" href="chunk-SHARED.js" integrity="x">' +
          '<link rel="modulepreload" href="chunk-BOOT.js" integrity="sha384-of-chunk-BOOT.js">' +
          '<script src="main-M.js" type="module"></script></body>',
      );
    });
  });
});
