import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CrmConnection } from '../config/app-config';
import { CiviCrmHttpClient } from './civicrm-http.client';
import { MAX_CALLS_PER_BATCH } from './crm-call-batcher';
import { CrmError } from './crm-errors';

/**
 * Reads started together reach CiviCRM as one batch request (crm-call-batcher.ts), answered as
 * docs/civicrm-wire-protocol.md, "Batch", describes: seen here on a raw HTTP server.
 */
interface Seen {
  method: string;
  path: string;
  body: URLSearchParams;
}

async function rawServer(
  answer: (seen: Seen, response: ServerResponse) => void,
): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://x.invalid');
      const entry = {
        method: request.method ?? '',
        path: url.pathname,
        body: request.method === 'GET' ? url.searchParams : new URLSearchParams(body),
      };
      seen.push(entry);
      answer(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
};

const envelope = (values: unknown[]) => ({
  values,
  entity: 'X',
  action: 'get',
  version: 4,
  count: values.length,
});

function client(baseUrl: string): CiviCrmHttpClient {
  return new CiviCrmHttpClient({
    baseUrl,
    apiKey: 'the-api-key',
    urlStyle: 'standard',
    timeoutMs: 2_000,
  } as CrmConnection);
}

/** Answers a batch call by call: `Nope` entities fail as CiviCRM's unknown API does. */
function answerBatch(seen: Seen, response: ServerResponse): void {
  const calls = JSON.parse(seen.body.get('calls') ?? '{}') as Record<string, [string, string, unknown]>;
  const answers: Record<string, unknown> = {};
  let worked = false;
  for (const [name, [entity]] of Object.entries(calls)) {
    if (entity === 'Nope') {
      answers[name] = { error_code: 0, error_message: 'API (Nope, get) does not exist', status: 500 };
    } else {
      answers[name] = envelope([{ id: 1, entity }]);
      worked = true;
    }
  }
  json(response, worked ? 200 : 500, answers);
}

describe('reads started together (CrmCallBatcher over CiviCrmHttpClient)', () => {
  let server: Server | undefined;
  let crm: CiviCrmHttpClient | undefined;

  afterEach(async () => {
    await crm?.onApplicationShutdown();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  it('go out as one POST to civicrm/ajax/api4, the calls in the order they were started', async () => {
    const raw = await rawServer(answerBatch);
    server = raw.server;
    crm = client(raw.url);

    const answers = await Promise.all([
      crm.api4('Contact', 'get', { select: ['id'], where: [['id', '=', 5]] }),
      crm.api4('Activity', 'get', { limit: 1 }),
      Promise.resolve().then(() => crm?.api4('OptionValue', 'get', {})),
    ]);

    expect(raw.seen).toHaveLength(1);
    expect(raw.seen[0]).toMatchObject({ method: 'POST', path: '/civicrm/ajax/api4' });
    const calls = JSON.parse(raw.seen[0]?.body.get('calls') ?? '{}') as Record<string, unknown>;
    expect(Object.values(calls)).toEqual([
      ['Contact', 'get', { select: ['id'], where: [['id', '=', 5]] }],
      ['Activity', 'get', { limit: 1 }],
      ['OptionValue', 'get', {}],
    ]);
    expect(answers.map((rows) => rows?.[0]?.['entity'])).toEqual(['Contact', 'Activity', 'OptionValue']);
  });

  it('splits a crowd of reads into batches of at most MAX_CALLS_PER_BATCH, in order', async () => {
    const raw = await rawServer(answerBatch);
    server = raw.server;
    crm = client(raw.url);

    const count = MAX_CALLS_PER_BATCH + 3;
    const answers = await Promise.all(
      Array.from({ length: count }, (_, id) => crm?.api4('Contact', 'get', { where: [['id', '=', id]] })),
    );

    expect(answers).toHaveLength(count);
    const sent = raw.seen.map(
      (seen) => JSON.parse(seen.body.get('calls') ?? '{}') as Record<string, unknown[]>,
    );
    expect(sent.map((calls) => Object.keys(calls).length).sort((a, b) => b - a)).toEqual([
      MAX_CALLS_PER_BATCH,
      3,
    ]);
    const ids = sent
      .flatMap((calls) => Object.values(calls))
      .map((call) => ((call[2] as { where: [string, string, number][] }).where[0] ?? [])[2]);
    expect(ids.sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: count }, (_, id) => id));
  });

  it('keeps a lone read a plain GET, and sends writes alone', async () => {
    const raw = await rawServer((_, response) => json(response, 200, envelope([{ id: 1 }])));
    server = raw.server;
    crm = client(raw.url);

    await crm.api4('Contact', 'get', {});
    await Promise.all([crm.api4('Contact', 'update', { values: {} }), crm.api4('Contact', 'get', {})]);

    const [lone, ...together] = raw.seen.map((seen) => `${seen.method} ${seen.path}`);
    expect(lone).toBe('GET /civicrm/ajax/api4/Contact/get');
    // Started together, they travel in parallel: the order they arrive in is the network's.
    expect(together.sort()).toEqual([
      'GET /civicrm/ajax/api4/Contact/get',
      'POST /civicrm/ajax/api4/Contact/update',
    ]);
  });

  it('fails only the call that failed, as the CRM refusing it', async () => {
    const raw = await rawServer(answerBatch);
    server = raw.server;
    crm = client(raw.url);

    const [good, bad] = await Promise.allSettled([crm.api4('Contact', 'get'), crm.api4('Nope', 'get')]);

    expect(good).toMatchObject({ status: 'fulfilled', value: [{ id: 1, entity: 'Contact' }] });
    expect(bad).toMatchObject({ status: 'rejected', reason: expect.any(CrmError) });
    const error = (bad as PromiseRejectedResult).reason as CrmError;
    expect([error.failure, error.call, error.httpStatus]).toEqual(['rejected', 'Nope.get', 500]);
  });

  it('reads each call’s error when none worked (HTTP 500 with the answers in the body)', async () => {
    const raw = await rawServer(answerBatch);
    server = raw.server;
    crm = client(raw.url);

    const results = await Promise.allSettled([
      crm.api4('Nope', 'get'),
      crm.api4('Nope', 'get', { limit: 1 }),
    ]);

    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    for (const result of results) {
      expect((result as PromiseRejectedResult).reason).toMatchObject({
        failure: 'rejected',
        call: 'Nope.get',
      });
    }
  });

  it('fails every call when the request itself is refused', async () => {
    const raw = await rawServer((_, response) => {
      response.writeHead(401, { 'Content-Type': 'text/plain' });
      response.end('HTTP 401 Invalid credential');
    });
    server = raw.server;
    crm = client(raw.url);

    const results = await Promise.allSettled([crm.api4('Contact', 'get'), crm.api4('Activity', 'get')]);

    for (const result of results) {
      expect((result as PromiseRejectedResult).reason).toMatchObject({ failure: 'unauthorized' });
    }
  });

  it('refuses an answer that lacks a call', async () => {
    const raw = await rawServer((_, response) => json(response, 200, { '0:Contact.get': envelope([]) }));
    server = raw.server;
    crm = client(raw.url);

    const [first, second] = await Promise.allSettled([
      crm.api4('Contact', 'get'),
      crm.api4('Activity', 'get'),
    ]);

    expect(first.status).toBe('fulfilled');
    expect((second as PromiseRejectedResult).reason).toMatchObject({
      failure: 'malformed',
      call: 'Activity.get',
    });
  });
});
