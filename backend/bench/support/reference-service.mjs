/**
 * The floor for the overhead benchmark: the least a Node process can do to serve a form load.
 * A bare node:http server that, for every request, makes the same CRM calls the service made for
 * one GET /api/data (same URLs, headers and undici pool settings, all at once), parses each
 * answer as JSON and writes an answer of the service's size. No framework, no validation, no
 * logging: its CPU time per request is what this machine charges for the HTTP and JSON work
 * alone, so the service's figure can be read against it.
 *
 * Reads its options as JSON from REFERENCE_OPTIONS: {port, crmUrls: string[], crmHeaders, answerBytes}.
 */
import { createServer } from 'node:http';
import { Agent, request } from 'undici';

const { port, crmUrls, crmHeaders, answerBytes } = JSON.parse(process.env.REFERENCE_OPTIONS ?? '{}');
// The service's pool settings (CiviCrmHttpClient).
const pool = new Agent({
  connect: { timeout: 10_000 },
  headersTimeout: 10_000,
  bodyTimeout: 10_000,
  keepAliveTimeout: 10_000,
});

async function crmCall(url) {
  const response = await request(url, { method: 'GET', headers: crmHeaders, dispatcher: pool });
  return JSON.parse(await response.body.text());
}

/** An answer of exactly `answerBytes` bytes of JSON built from what the CRM said. */
function answer(crmAnswers) {
  const counts = JSON.stringify({ calls: crmAnswers.map((crmAnswer) => crmAnswer.values.length), pad: '' });
  return `${counts.slice(0, -2)}${'x'.repeat(Math.max(0, answerBytes - counts.length))}"}`;
}

const server = createServer((_incoming, outgoing) => {
  Promise.all(crmUrls.map(crmCall)).then(
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
