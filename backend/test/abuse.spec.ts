import { connect } from 'node:net';
import { createDemoModel, DEMO_CHECKSUM } from '../src/app/crm/in-memory/demo-data';
import { ownerQuery, DEMO_LINK } from './support/test-app';
import { sharedTestApp } from './support/shared-app';

/** Writes `raw` on a fresh connection and reads until the service closes it. */
function rawExchange(url: string, raw: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(raw));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

function statusAndBody(answer: string): { status: number; headers: string; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return {
    status: Number(head.split(' ')[1]),
    headers: head,
    body: body ? (JSON.parse(body) as unknown) : undefined,
  };
}

describe('requests at the edges of HTTP (docs/decisions.md, "Error bodies")', () => {
  const test = sharedTestApp({ emulator: { model: createDemoModel() } }, { resetEmulator: false });

  it('answers HEAD on an owner route with a valid link as GET would, without a body', async () => {
    const head = await fetch(`${test.url}/api/data?${ownerQuery(DEMO_LINK)}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');

    const refused = await fetch(`${test.url}/api/report?${ownerQuery({ ...DEMO_LINK, cs: 'wrong' })}`, {
      method: 'HEAD',
    });
    expect(refused.status).toBe(401);
  });

  it('answers an address over the header limit with 431 and the error body', async () => {
    const path = `/api/data?cs=${'x'.repeat(20_000)}`;
    const answer = statusAndBody(await rawExchange(test.url, `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect(answer.status).toBe(431);
    expect(answer.headers).toMatch(/content-type: application\/json/i);
    expect(answer.body).toEqual({
      statusCode: 431,
      code: 'HEADERS_TOO_LARGE',
      message: 'The address or the headers of the request are too long.',
    });
  });

  it('answers a request Node cannot parse with 400 and the error body', async () => {
    const answer = statusAndBody(await rawExchange(test.url, 'NOT HTTP AT ALL\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ statusCode: 400, code: 'BAD_REQUEST' });
  });

  it.each([` ${DEMO_CHECKSUM}`, `${DEMO_CHECKSUM} `, `${DEMO_CHECKSUM}\t`])(
    'refuses the checksum %p: only the exact checksum opens the link',
    async (cs) => {
      const response = await test.get(`/api/data?${ownerQuery({ ...DEMO_LINK, cs })}`);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'CHECKSUM_INVALID' });
    },
  );
});
