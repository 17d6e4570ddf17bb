/**
 * What the service asks of CiviCRM, seen from between them (tools/bench/crm-routes.mjs): a logging
 * proxy, the CiviCRM requests it recorded counted in rounds, calls and bytes, and the floor: the
 * same requests sent straight to CiviCRM.
 */
import { createServer, request as httpRequest } from 'node:http';

/**
 * Between the service and CiviCRM: forwards every request unchanged and records it (method, path,
 * headers, body, when it started and ended, the bytes CiviCRM answered), so a route's CiviCRM
 * requests can be counted and sent again without the service.
 */
export function startProxy(target) {
  const records = [];
  const server = createServer((incoming, outgoing) => {
    const chunks = [];
    incoming.on('data', (chunk) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const record = {
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers },
        body,
        start: performance.now(),
      };
      const forwarded = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
        },
        (answer) => {
          const parts = [];
          answer.on('data', (part) => parts.push(part));
          answer.on('end', () => {
            const bytes = Buffer.concat(parts);
            record.end = performance.now();
            record.status = answer.statusCode;
            record.bytes = bytes.length;
            records.push(record);
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            outgoing.end(bytes);
          });
        },
      );
      forwarded.on('error', () => {
        outgoing.writeHead(502);
        outgoing.end();
      });
      forwarded.end(body);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        /** The requests recorded since the last take, in the order they started. */
        take: () => records.splice(0).sort((a, b) => a.start - b.start),
        close: () => new Promise((done) => server.close(done)),
      });
    });
  });
}

/** Requests in flight together form one round; a request that starts after all before it ended opens the next. */
export function roundsOf(records) {
  const rounds = [];
  let openUntil = -Infinity;
  for (const record of records) {
    if (record.start >= openUntil) rounds.push([]);
    rounds[rounds.length - 1].push(record);
    openUntil = Math.max(openUntil, record.end);
  }
  return rounds;
}

/** APIv4 calls a request carries: a batch's `calls`, else one. */
export function callsOf(record) {
  if (record.method !== 'POST') return 1;
  const calls = new URLSearchParams(record.body.toString('utf8')).get('calls');
  return calls ? Object.keys(JSON.parse(calls)).length : 1;
}

export function crmTraffic(records) {
  return {
    requests: records.length,
    rounds: roundsOf(records).length,
    calls: records.reduce((sum, record) => sum + callsOf(record), 0),
    bytes: records.reduce((sum, record) => sum + record.bytes, 0),
    statuses: records.map((record) => record.status),
  };
}

/**
 * The floor: the same CiviCRM requests sent straight to CiviCRM at `siteUrl`, round after round,
 * each round's together. Answers the milliseconds it took.
 */
export async function replayOn(siteUrl, records) {
  const started = performance.now();
  for (const round of roundsOf(records)) {
    await Promise.all(
      round.map(async (record) => {
        const headers = { ...record.headers };
        delete headers.host;
        delete headers.connection;
        const response = await fetch(`${siteUrl}${record.path}`, {
          method: record.method,
          headers,
          body: record.method === 'GET' ? undefined : record.body,
        });
        await response.arrayBuffer();
      }),
    );
  }
  return performance.now() - started;
}
