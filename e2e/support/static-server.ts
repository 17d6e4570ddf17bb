import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
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

export interface StaticServer {
  /** Base URL with a trailing slash, e.g. http://127.0.0.1:41234/ */
  url: string;
  close(): Promise<void>;
}

/** A fixed answer for one path, served instead of a file. */
export interface FixedResponse {
  contentType: string;
  body: string;
}

/** The decoded path of a request URL, or null when it cannot be decoded. */
function pathnameOf(requestUrl: string): string | null {
  try {
    const pathname = decodeURIComponent(new URL(requestUrl, 'http://localhost').pathname);
    return pathname.includes('\0') ? null : pathname;
  } catch {
    return null;
  }
}

/** The file a path points to, or null when it would leave the root. */
function fileUnder(root: string, pathname: string): string | null {
  const file = normalize(join(root, pathname));
  return file === root || file.startsWith(root + sep) ? file : null;
}

async function serve(
  root: string,
  fixed: Record<string, FixedResponse>,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const reply = (status: number, contentType: string, body: string) => {
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
 */
export async function startStaticServer(
  root: string,
  fixed: Record<string, FixedResponse> = {},
): Promise<StaticServer> {
  const base = resolve(root);
  const server: Server = createServer((request, response) => void serve(base, fixed, request, response));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((done, fail) => {
        server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      }),
  };
}
