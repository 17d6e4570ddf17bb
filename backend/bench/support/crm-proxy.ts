import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through HTTP proxy between the service and the CRM emulator that times every call as
 * the service sees it (from the request's first byte to the answer's last), and can replay
 * reads: with `replayReads`, a GET it has answered once is answered again from memory, so the
 * CRM costs next to nothing and what is measured is the service alone.
 */

export interface ProxiedCall {
  method: string;
  /** Path without the query string (which holds the call's parameters). */
  path: string;
  /** Path and query string, as the service sent them. */
  url: string;
  /** A call with a body (APIv4's batch of calls is a POST): its body and content type. */
  body?: { text: string; contentType: string };
  status: number;
  /** Bytes of the answer's body, as they went back to the service. */
  bytes: number;
  /** From the request's arrival to the answer's end, milliseconds. */
  ms: number;
  replayed: boolean;
}

interface StoredAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

/** Headers that describe one hop's connection, not the request. */
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

export class CrmProxy {
  readonly calls: ProxiedCall[] = [];
  readonly url: string;
  private readonly answers = new Map<string, StoredAnswer>();

  private constructor(
    private readonly server: Server,
    private readonly upstream: string,
    private readonly replayReads: boolean,
  ) {
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  static async start(upstream: string, options: { replayReads: boolean }): Promise<CrmProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new CrmProxy(server, upstream, options.replayReads);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      proxy.handle(request, response).catch(() => {
        if (!response.headersSent) response.writeHead(502);
        response.end();
      });
    });
    return proxy;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const arrived = performance.now();
    const method = request.method ?? 'GET';
    const url = request.url ?? '/';
    const body = await readAll(request);
    const key = `${method} ${url}`;
    const stored = method === 'GET' && this.replayReads ? this.answers.get(key) : undefined;
    const answer = stored ?? (await this.forward(method, url, request, body));
    if (!stored && method === 'GET' && this.replayReads && answer.status === 200)
      this.answers.set(key, answer);

    response.writeHead(answer.status, {
      'Content-Type': answer.contentType,
      'Content-Length': answer.body.byteLength,
    });
    response.end(answer.body, () => {
      this.calls.push({
        method,
        path: url.split('?')[0] ?? url,
        url,
        ...(body.length > 0
          ? {
              body: {
                text: body.toString('utf8'),
                contentType: String(request.headers['content-type'] ?? ''),
              },
            }
          : {}),
        status: answer.status,
        bytes: answer.body.byteLength,
        ms: performance.now() - arrived,
        replayed: stored !== undefined,
      });
    });
  }

  private async forward(
    method: string,
    url: string,
    request: IncomingMessage,
    body: Buffer,
  ): Promise<StoredAnswer> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (!HOP_HEADERS.has(name) && value !== undefined) headers[name] = String(value);
    }
    const upstream = await fetch(`${this.upstream}${url}`, {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : body,
    });
    return {
      status: upstream.status,
      contentType: upstream.headers.get('content-type') ?? 'application/octet-stream',
      body: Buffer.from(await upstream.arrayBuffer()),
    };
  }
}

async function readAll(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
