import { randomBytes } from 'node:crypto';
import { encodeFileCreateForm, type NewCrmFile } from './file-create-form';

/** What a form parser (PHP's, the WHATWG one) makes of the body. */
function decode(chunks: Buffer[]): Record<string, unknown> {
  const form = new URLSearchParams(Buffer.concat(chunks).toString('latin1'));
  expect([...form.keys()]).toEqual(['params']);
  return JSON.parse(form.get('params') ?? '') as Record<string, unknown>;
}

/** The straightforward encoding it stands in for. */
function plainParams(file: NewCrmFile): Record<string, unknown> {
  return {
    values: {
      file_name: file.fileName,
      mime_type: file.mimeType,
      content: Buffer.from(file.bytes).toString('base64'),
    },
  };
}

describe('encodeFileCreateForm', () => {
  it.each([0, 1, 2, 3, 4, 5, 49_151, 49_152, 49_153, 5 * 1024 * 1024])(
    'carries %i bytes exactly as the plain encoding would, padding included',
    (size) => {
      const file = { fileName: 'minutes.pdf', mimeType: 'application/pdf', bytes: randomBytes(size) };
      const { chunks, byteLength } = encodeFileCreateForm(file);
      expect(decode(chunks)).toEqual(plainParams(file));
      expect(byteLength).toBe(Buffer.concat(chunks).byteLength);
    },
  );

  it('escapes every character a form parser would change: + & = % and spaces, in names too', () => {
    // 0xfb 0xff 0xbe encodes to "+/++": the base64 alphabet's two symbols.
    const file = {
      fileName: 'Q1 & Q2 = 100% "final" + notes ñ.pdf',
      mimeType: 'application/pdf',
      bytes: Buffer.from([0xfb, 0xff, 0xbe, 0xfb, 0xff]),
    };
    const body = Buffer.concat(encodeFileCreateForm(file).chunks).toString('latin1');
    expect(body).toMatch(/^params=[A-Za-z0-9%._~*'()!/-]+$/);
    expect(body).not.toMatch(/[+& ]/);
    expect(decode(encodeFileCreateForm(file).chunks)).toEqual(plainParams(file));
  });

  it('reads only the bytes of a view, not the rest of its buffer', () => {
    const whole = Buffer.from('0123456789');
    const file = { fileName: 'a.png', mimeType: 'image/png', bytes: whole.subarray(2, 5) };
    expect(decode(encodeFileCreateForm(file).chunks)).toEqual(plainParams(file));
    expect(plainParams(file)).toMatchObject({ values: { content: Buffer.from('234').toString('base64') } });
  });

  it('keeps every chunk small: no 7 MiB string or buffer for a 5 MiB file', () => {
    const { chunks } = encodeFileCreateForm({
      fileName: 'big.pdf',
      mimeType: 'application/pdf',
      bytes: randomBytes(5 * 1024 * 1024),
    });
    expect(Math.max(...chunks.map((chunk) => chunk.byteLength))).toBeLessThanOrEqual(70_000);
  });
});
