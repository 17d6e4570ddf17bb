/**
 * The test and bench harness's static file server: the links page's browser suite
 * (e2e/links/links-page.spec.ts) and its Lighthouse bench (tools/bench/links-lighthouse.mjs)
 * serve the repository's files through it. CommonJS with its types in static-server.d.cts, for
 * the same reason as processes.cjs.
 */
const { createReadStream } = require('node:fs');
const { stat } = require('node:fs/promises');
const { createServer } = require('node:http');
const { extname, join, normalize, resolve, sep } = require('node:path');

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.pdf': 'application/pdf',
};

/**
 * The decoded path of a request URL, or null when it cannot be decoded.
 * @param {string} requestUrl
 */
function pathnameOf(requestUrl) {
  try {
    const pathname = decodeURIComponent(new URL(requestUrl, 'http://localhost').pathname);
    return pathname.includes('\0') ? null : pathname;
  } catch {
    return null;
  }
}

/**
 * The file a path points to, or null when it would leave the root.
 * @param {string} root
 * @param {string} pathname
 */
function fileUnder(root, pathname) {
  const file = normalize(join(root, pathname));
  return file === root || file.startsWith(root + sep) ? file : null;
}

/**
 * @param {string} root
 * @param {Record<string, import('./static-server.cjs').FixedResponse>} fixed
 * @param {import('node:http').IncomingMessage} request
 * @param {import('node:http').ServerResponse} response
 */
async function serve(root, fixed, request, response) {
  const reply = (status, contentType, body) => {
    response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-cache' });
    response.end(request.method === 'HEAD' ? undefined : body);
  };
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('allow', 'GET, HEAD');
    return reply(405, 'text/plain; charset=utf-8', 'Method not allowed');
  }
  const pathname = pathnameOf(request.url ?? '/');
  const answer = pathname === null ? undefined : fixed[pathname];
  if (answer) return reply(200, answer.contentType, answer.body);
  let file = pathname === null ? null : fileUnder(root, pathname);
  if (!file) return reply(404, 'text/plain; charset=utf-8', 'Not found');
  try {
    let info = await stat(file);
    if (info.isDirectory()) {
      file = join(file, 'index.html');
      info = await stat(file);
    }
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'content-length': info.size,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    createReadStream(file).pipe(response);
  } catch {
    reply(404, 'text/plain; charset=utf-8', 'Not found');
  }
}

/**
 * Serves the files under `root` read-only, for GET and HEAD, on 127.0.0.1 and a free port.
 * `fixed` answers chosen paths (such as "/favicon.ico") with a given body instead of a file.
 * @param {string} root
 * @param {Record<string, import('./static-server.cjs').FixedResponse>} [fixed]
 */
async function startStaticServer(root, fixed = {}) {
  const base = resolve(root);
  const server = createServer((request, response) => void serve(base, fixed, request, response));
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((done, fail) => {
        server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      }),
  };
}

module.exports = { startStaticServer };
