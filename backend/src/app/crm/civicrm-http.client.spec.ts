import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CrmConnection } from '../config/app-config';
import { CiviCrmHttpClient } from './civicrm-http.client';
import { CrmError } from './crm-errors';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (request: Seen, response: ServerResponse) => void;

/** A raw HTTP server, so these specs see exactly what goes over the wire. */
async function rawServer(handler: Handler): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      seen.push(entry);
      handler(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, seen };
}

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
};

function connection(baseUrl: string, extra: Partial<CrmConnection> = {}): CrmConnection {
  return {
    baseUrl,
    apiKey: 'the-api-key',
    urlStyle: 'standard',
    timeoutMs: 2_000,
    customGroups: { activity: 'Check_in_data__organizing_', contact: 'Food_Co_op_Organizing' },
    ...extra,
  } as CrmConnection;
}

/** Resolves once `condition` holds, polling every 5 ms for at most 2 s. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within 2 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('CiviCrmHttpClient', () => {
  let server: Server | undefined;

  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  it('sends a get action as GET with params as a JSON string in the query', async () => {
    const raw = await rawServer((_, response) => json(response, 200, { values: [{ id: 1 }], count: 1 }));
    server = raw.server;
    const rows = await new CiviCrmHttpClient(connection(raw.url)).api4('Contact', 'get', {
      select: ['id'],
      where: [['id', '=', 1]],
    });
    expect(rows).toEqual([{ id: 1 }]);
    const [request] = raw.seen;
    expect(request?.method).toBe('GET');
    const url = new URL(request?.url ?? '', raw.url);
    expect(url.pathname).toBe('/civicrm/ajax/api4/Contact/get');
    expect(JSON.parse(url.searchParams.get('params') ?? '')).toEqual({
      select: ['id'],
      where: [['id', '=', 1]],
    });
  });

  it('sends every other action as POST with params as a form field', async () => {
    const raw = await rawServer((_, response) => json(response, 200, { values: [{ valid: true }] }));
    server = raw.server;
    await new CiviCrmHttpClient(connection(raw.url)).api4('Contact', 'validateChecksum', {
      contactId: 5,
      checksum: 'abc',
    });
    const [request] = raw.seen;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/civicrm/ajax/api4/Contact/validateChecksum');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(JSON.parse(new URLSearchParams(request?.body).get('params') ?? '')).toEqual({
      contactId: 5,
      checksum: 'abc',
    });
  });

  it('sends getChecksum as POST: it is not a read, whatever its name', async () => {
    const raw = await rawServer((_, response) => json(response, 200, { values: [{ id: 5, checksum: 'x' }] }));
    server = raw.server;
    await new CiviCrmHttpClient(connection(raw.url)).api4('Contact', 'getChecksum', {
      contactId: 5,
      ttl: 168,
    });
    expect(raw.seen[0]?.method).toBe('POST');
    expect(JSON.parse(new URLSearchParams(raw.seen[0]?.body).get('params') ?? '')).toEqual({
      contactId: 5,
      ttl: 168,
    });
  });

  it('creates a file as a POST File.create with base64 content and a declared length, not chunked', async () => {
    const raw = await rawServer((_, response) => json(response, 200, { values: [{ id: 77 }] }));
    server = raw.server;
    const bytes = Buffer.alloc(200_000, 0xfb);
    const rows = await new CiviCrmHttpClient(connection(raw.url)).createFile({
      fileName: 'minutes & notes.pdf',
      mimeType: 'application/pdf',
      bytes,
    });
    expect(rows).toEqual([{ id: 77 }]);
    const [request] = raw.seen;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/civicrm/ajax/api4/File/create');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request?.headers['transfer-encoding']).toBeUndefined();
    expect(Number(request?.headers['content-length'])).toBe(Buffer.byteLength(request?.body ?? ''));
    expect(request?.headers['x-civi-auth']).toBe('Bearer the-api-key');
    expect(JSON.parse(new URLSearchParams(request?.body).get('params') ?? '')).toEqual({
      values: {
        file_name: 'minutes & notes.pdf',
        mime_type: 'application/pdf',
        content: bytes.toString('base64'),
      },
    });
  });

  it('never retries a file creation after a network error', async () => {
    let attempts = 0;
    const raw = await rawServer((_, response) => {
      attempts += 1;
      response.socket?.destroy();
    });
    server = raw.server;
    const created = new CiviCrmHttpClient(connection(raw.url)).createFile({
      fileName: 'a.png',
      mimeType: 'image/png',
      bytes: Buffer.from('png'),
    });
    await expect(created).rejects.toMatchObject({ failure: 'unreachable' });
    expect(attempts).toBe(1);
  });

  it('authenticates with X-Civi-Auth, the site key and, when configured, webserver Basic Auth', async () => {
    const raw = await rawServer((_, response) => json(response, 200, { values: [] }));
    server = raw.server;
    const client = new CiviCrmHttpClient(
      connection(raw.url, { siteKey: 'the-site-key', basicAuth: { user: 'web', password: 'pass' } }),
    );
    await client.api4('Contact', 'get', {});
    const headers = raw.seen[0]?.headers ?? {};
    expect(headers['x-civi-auth']).toBe('Bearer the-api-key');
    expect(headers['x-civi-key']).toBe('the-site-key');
    expect(headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(headers['authorization']).toBe(`Basic ${Buffer.from('web:pass').toString('base64')}`);
    expect(raw.seen[0]?.url).not.toContain('the-api-key');
  });

  it('sends no Authorization header without Basic Auth settings', async () => {
    const raw = await rawServer((_, response) => json(response, 200, { values: [] }));
    server = raw.server;
    await new CiviCrmHttpClient(connection(raw.url)).api4('Contact', 'get', {});
    expect(raw.seen[0]?.headers['authorization']).toBeUndefined();
    expect(raw.seen[0]?.headers['x-civi-key']).toBeUndefined();
  });

  it.each([
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [500, 'rejected'],
    [503, 'failed'],
  ])('turns HTTP %i with CiviCRM’s error envelope into a %s CrmError', async (status, failure) => {
    const raw = await rawServer((_, response) =>
      json(response, status, { error_message: 'DB Error: secret detail' }),
    );
    server = raw.server;
    const call = new CiviCrmHttpClient(connection(raw.url)).api4('Contact', 'get', {});
    await expect(call).rejects.toMatchObject({ failure, httpStatus: status });
    await expect(call).rejects.not.toThrow(/secret detail/);
  });

  it('treats a body that is not JSON as malformed', async () => {
    const raw = await rawServer((_, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html' });
      response.end('<html>maintenance</html>');
    });
    server = raw.server;
    await expect(new CiviCrmHttpClient(connection(raw.url)).api4('Contact', 'get', {})).rejects.toMatchObject(
      {
        failure: 'malformed',
      },
    );
  });

  it('treats JSON without a values list as malformed', async () => {
    const raw = await rawServer((_, response) => json(response, 200, { is_error: 0 }));
    server = raw.server;
    await expect(new CiviCrmHttpClient(connection(raw.url)).api4('Contact', 'get', {})).rejects.toMatchObject(
      {
        failure: 'malformed',
      },
    );
  });

  it('gives up after the timeout', async () => {
    const raw = await rawServer(() => undefined);
    server = raw.server;
    const client = new CiviCrmHttpClient(connection(raw.url, { timeoutMs: 150 }));
    const started = Date.now();
    await expect(client.api4('Contact', 'get', {})).rejects.toMatchObject({ failure: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('keeps at most CRM_MAX_CONNECTIONS calls in flight, reuses those connections and sends the rest in the order they were made', async () => {
    const held: ServerResponse[] = [];
    const raw = await rawServer((_, response) => held.push(response));
    server = raw.server;
    const sockets = new Set<unknown>();
    raw.server.on('connection', (socket) => sockets.add(socket));
    const client = new CiviCrmHttpClient(connection(raw.url, { maxConnections: 2, timeoutMs: 5_000 }));
    const subjects = ['first', 'second', 'third', 'fourth', 'fifth'];
    const calls = subjects.map((subject) => client.api4('Activity', 'create', { values: { subject } }));

    for (let answered = 0; answered < subjects.length; answered += 1) {
      await until(() => held.length === Math.min(answered + 2, subjects.length));
      // A third call would have arrived by now had it not waited for a free connection.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(held.length - answered).toBeLessThanOrEqual(2);
      json(held[answered] as ServerResponse, 200, { values: [{ id: answered + 1 }] });
    }

    await expect(Promise.all(calls)).resolves.toEqual(subjects.map((_, index) => [{ id: index + 1 }]));
    const sentSubjects = raw.seen.map(({ body }) => {
      const params = JSON.parse(new URLSearchParams(body).get('params') ?? '{}') as {
        values: { subject: string };
      };
      return params.values.subject;
    });
    expect(sentSubjects).toEqual(subjects);
    expect(sockets.size).toBe(2);
  });

  it('retries a read once after a network error, but never a write', async () => {
    let attempts = 0;
    const raw = await rawServer((_, response) => {
      attempts += 1;
      if (attempts === 1) response.socket?.destroy();
      else json(response, 200, { values: [{ id: 3 }] });
    });
    server = raw.server;
    const client = new CiviCrmHttpClient(connection(raw.url));
    await expect(client.api4('Contact', 'get', {})).resolves.toEqual([{ id: 3 }]);
    expect(attempts).toBe(2);

    attempts = 0;
    await expect(client.api4('Activity', 'create', { values: {} })).rejects.toBeInstanceOf(CrmError);
    expect(attempts).toBe(1);
  });

  it('calls APIv3 through civicrm/ajax/rest and normalizes keyed values to an array', async () => {
    const raw = await rawServer((_, response) =>
      json(response, 200, {
        is_error: 0,
        version: 3,
        count: 2,
        values: { '5': { id: '5' }, '9': { id: '9' } },
      }),
    );
    server = raw.server;
    const rows = await new CiviCrmHttpClient(connection(raw.url)).api3('Attachment', 'get', {
      id: { IN: [5, 9] },
      return: 'id,url',
      sequential: 1,
    });
    expect(rows).toEqual([{ id: '5' }, { id: '9' }]);
    const form = new URLSearchParams(raw.seen[0]?.body);
    expect(raw.seen[0]?.url).toBe('/civicrm/ajax/rest');
    expect(raw.seen[0]?.headers['x-civi-auth']).toBe('Bearer the-api-key');
    expect(form.get('entity')).toBe('Attachment');
    expect(form.get('action')).toBe('get');
    expect(JSON.parse(form.get('json') ?? '')).toEqual({
      id: { IN: [5, 9] },
      return: 'id,url',
      sequential: 1,
    });
  });

  it('turns an HTTP 500 page that is not CiviCRM’s envelope into a failed CrmError (an outage)', async () => {
    const raw = await rawServer((_, response) => {
      response.writeHead(500, { 'Content-Type': 'text/html' });
      response.end('<html>Fatal error</html>');
    });
    server = raw.server;
    await expect(new CiviCrmHttpClient(connection(raw.url)).api4('Contact', 'get', {})).rejects.toMatchObject(
      {
        failure: 'failed',
        httpStatus: 500,
      },
    );
  });

  it('turns an APIv3 is_error envelope into a rejected CrmError', async () => {
    const raw = await rawServer((_, response) =>
      json(response, 200, { is_error: 1, error_message: 'not allowed' }),
    );
    server = raw.server;
    await expect(
      new CiviCrmHttpClient(connection(raw.url)).api3('Attachment', 'get', {}),
    ).rejects.toMatchObject({
      failure: 'rejected',
    });
  });

  it('spells WordPress addresses with the path as a query parameter', async () => {
    const raw = await rawServer((_, response) => json(response, 200, { values: [] }));
    server = raw.server;
    await new CiviCrmHttpClient(connection(raw.url, { urlStyle: 'wordpress' })).api4('Contact', 'create', {
      values: {},
    });
    const url = new URL(raw.seen[0]?.url ?? '', raw.url);
    expect(url.searchParams.get('civiwp')).toBe('CiviCRM');
    expect(url.searchParams.get('q')).toBe('civicrm/ajax/api4/Contact/create');
  });

  it.each([
    ['chunked', {}],
    ['with a declared length', { 'Content-Length': '100000' }],
  ])(
    'keeps the timeout as a deadline for the whole answer, however steadily its body trickles (%s)',
    async (_, length) => {
      const trickles: NodeJS.Timeout[] = [];
      const raw = await rawServer((_, response) => {
        response.writeHead(200, { 'Content-Type': 'application/json', ...length });
        response.write('{"values":[');
        // A byte every 50 ms: each pause is far below the timeout, the whole far above it.
        trickles.push(setInterval(() => response.write(' '), 50));
      });
      server = raw.server;
      const client = new CiviCrmHttpClient(connection(raw.url, { timeoutMs: 300 }));
      const started = Date.now();
      try {
        await expect(client.api4('Contact', 'get', {})).rejects.toMatchObject({ failure: 'timeout' });
        expect(Date.now() - started).toBeLessThan(1_000);
      } finally {
        trickles.forEach(clearInterval);
      }
    },
  );

  it('refuses an answer over the size cap and drops its connection', async () => {
    let closed = false;
    const raw = await rawServer((_, response) => {
      response.on('close', () => (closed = true));
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('{"values":["');
      // Chunked, so only counting can catch it; far more than the cap, never finished.
      const chunk = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 8; i += 1) response.write(chunk);
    });
    server = raw.server;
    const client = new CiviCrmHttpClient(
      connection(raw.url, { maxAnswerBytes: 100 * 1024, timeoutMs: 2_000 }),
    );
    await expect(client.api4('Contact', 'get', {})).rejects.toMatchObject({ failure: 'failed' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed).toBe(true);
  });

  it('refuses an answer whose declared length is over the cap without reading it', async () => {
    const raw = await rawServer((_, response) => {
      response.writeHead(200, {
        'Content-Type': 'application/json',
        'Content-Length': String(10 * 1024 * 1024),
      });
      response.write('{"values":[');
    });
    server = raw.server;
    const client = new CiviCrmHttpClient(connection(raw.url, { maxAnswerBytes: 1024 * 1024 }));
    const started = Date.now();
    await expect(client.api4('Contact', 'get', {})).rejects.toMatchObject({ failure: 'failed' });
    expect(Date.now() - started).toBeLessThan(400);
  });
});
