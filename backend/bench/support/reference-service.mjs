/**
 * The floor for the overhead benchmark: the least a Node process can do to serve a form load.
 * A bare node:http server that, for every request, makes the same CRM calls the service made for
 * one GET /api/data (same methods, URLs, bodies, headers and undici pool settings, all at once), parses each
 * answer as JSON and writes an answer of the service's size. No framework, no validation, no
 * logging: its CPU time per request is what this machine charges for the HTTP and JSON work
 * alone, so the service's figure can be read against it.
 *
 * Reads its options as JSON from REFERENCE_OPTIONS: {port, connections, crmCalls: {url, method, body?}[],
 * crmHeaders, answerBytes}.
 */
import { createServer } from 'node:http';
import { Agent, request } from 'undici';

const { port, connections, crmCalls, crmHeaders, answerBytes } = JSON.parse(
  process.env.REFERENCE_OPTIONS ?? '{}',
);
// The service's pool settings (CiviCrmHttpClient).
const pool = new Agent({
  connections,
  connect: { timeout: 10_000 },
  headersTimeout: 10_000,
  bodyTimeout: 10_000,
  keepAliveTimeout: 10_000,
});

async function crmCall({ url, method, body }) {
  const headers = body ? { ...crmHeaders, 'Content-Type': body.contentType } : crmHeaders;
  const response = await request(url, { method, headers, body: body?.text, dispatcher: pool });
  return JSON.parse(await response.body.text());
}

/** Rows in one CRM answer: an API call's `values`, or each call's in a batch's answer. */
function rowCount(crmAnswer) {
  if (Array.isArray(crmAnswer?.values)) return crmAnswer.values.length;
  if (typeof crmAnswer !== 'object' || crmAnswer === null) return 0;
  return Object.values(crmAnswer).reduce((rows, part) => rows + rowCount(part), 0);
}

/** An answer of exactly `answerBytes` bytes of JSON built from what the CRM said. */
function answer(crmAnswers) {
  const counts = JSON.stringify({ calls: crmAnswers.map(rowCount), pad: '' });
  return `${counts.slice(0, -2)}${'x'.repeat(Math.max(0, answerBytes - counts.length))}"}`;
}

const server = createServer((_incoming, outgoing) => {
  Promise.all(crmCalls.map(crmCall)).then(
    (crmAnswers) => {
      const body = answer(crmAnswers);
      outgoing.writeHead(200, {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
      });
      outgoing.end(body);
    },
    () => {
      outgoing.writeHead(502);
      outgoing.end();
    },
  );
});
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => pool.close().then(() => process.exit(0))));
