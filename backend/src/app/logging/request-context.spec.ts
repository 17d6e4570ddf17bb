import { currentRequestId, requestIdFrom, runWithRequestId } from './request-context';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdFrom', () => {
  it.each(['abc', 'lb-7f3a.2026:11', 'Root=1-5759e988-bd862e3fe1be46a994272793', 'x'.repeat(128)])(
    "keeps a proxy's short token (%s)",
    (incoming) => {
      expect(requestIdFrom(incoming)).toBe(incoming);
    },
  );

  it.each([undefined, '', 'two words', 'x'.repeat(129), 'a"b', 'a\\b', 'line\nbreak', 'é'])(
    'makes a new UUID instead of %p',
    (incoming) => {
      expect(requestIdFrom(incoming)).toMatch(UUID);
    },
  );
});

describe('runWithRequestId', () => {
  it('makes the id visible to everything the work does, across awaits, and nowhere else', async () => {
    const seen = await runWithRequestId('req-1', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return currentRequestId();
    });
    expect(seen).toBe('req-1');
    expect(currentRequestId()).toBeUndefined();
  });
});
