import { DEFAULT_FILE_STEM, sanitizeFileName } from './file-name';
import { allowedFileType, type AllowedFileType, MAX_FILE_NAME_LENGTH } from '../check-ins/upload-policy';

function typeFor(mime: string): AllowedFileType {
  const type = allowedFileType(mime);
  if (!type) throw new Error(`${mime} is not on the allowlist`);
  return type;
}

const PDF = typeFor('application/pdf');
const PNG = typeFor('image/png');
const JPEG = typeFor('image/jpeg');

describe('sanitizeFileName (docs/decisions.md, "Limits")', () => {
  it('keeps an ordinary name as it is', () => {
    expect(sanitizeFileName('Certificate of Incorporation (2022).pdf', PDF)).toBe(
      'Certificate of Incorporation (2022).pdf',
    );
  });

  it.each([
    ['../../etc/passwd.pdf', PDF, 'passwd.pdf'],
    ['..\\..\\x.png', PNG, 'x.png'],
    ['C:\\Users\\marisol\\Desktop\\scan.pdf', PDF, 'scan.pdf'],
    ['/var/www/../uploads/./plan.pdf', PDF, 'plan.pdf'],
  ])('removes the path parts of %p', (name, type, expected) => {
    expect(sanitizeFileName(name, type)).toBe(expected);
  });

  it('removes control characters and bidirectional overrides', () => {
    expect(sanitizeFileName('re\u0000port\u0007\r\n.pdf', PDF)).toBe('report.pdf');
    expect(sanitizeFileName('invoice\u202Efdp.png', PNG)).toBe('invoicefdp.png');
  });

  it('replaces characters Windows refuses and collapses runs of spaces', () => {
    expect(sanitizeFileName('plan: "final"?   v2.pdf', PDF)).toBe('plan_ _final__ v2.pdf');
  });

  it('does not leave a hidden or dot-only name', () => {
    expect(sanitizeFileName('.htaccess.pdf', PDF)).toBe('htaccess.pdf');
    expect(sanitizeFileName('..', PDF)).toBe(`${DEFAULT_FILE_STEM}.pdf`);
    expect(sanitizeFileName('../..', PDF)).toBe(`${DEFAULT_FILE_STEM}.pdf`);
  });

  it('uses a safe default when nothing of the name is left', () => {
    expect(sanitizeFileName('', PNG)).toBe(`${DEFAULT_FILE_STEM}.png`);
    expect(sanitizeFileName(undefined, PDF)).toBe(`${DEFAULT_FILE_STEM}.pdf`);
    expect(sanitizeFileName('\u0001\u0002.pdf', PDF)).toBe(`${DEFAULT_FILE_STEM}.pdf`);
  });

  it('caps the name at 120 characters and keeps the extension', () => {
    const name = sanitizeFileName(`${'a'.repeat(300)}.pdf`, PDF);
    expect(name).toHaveLength(MAX_FILE_NAME_LENGTH);
    expect(name).toBe(`${'a'.repeat(MAX_FILE_NAME_LENGTH - 4)}.pdf`);
  });

  it('counts characters, so a long name never ends in half an emoji', () => {
    const name = sanitizeFileName(`${'🥕'.repeat(200)}.png`, PNG);
    expect(Array.from(name)).toHaveLength(MAX_FILE_NAME_LENGTH);
    expect(name.endsWith('🥕.png')).toBe(true);
  });

  it('keeps the extension in its lowercase form and accepts each of the type’s extensions', () => {
    expect(sanitizeFileName('SCAN.PDF', PDF)).toBe('SCAN.pdf');
    expect(sanitizeFileName('photo.jpeg', JPEG)).toBe('photo.jpeg');
    expect(sanitizeFileName('photo.jpg', JPEG)).toBe('photo.jpg');
  });

  it('appends the verified type’s extension when the name claims another', () => {
    expect(sanitizeFileName('notes.html', PDF)).toBe('notes.html.pdf');
    expect(sanitizeFileName('scan', PNG)).toBe('scan.png');
    expect(sanitizeFileName('archive.tar.gz', PDF)).toBe('archive.tar.gz.pdf');
  });

  it('keeps the appended extension within the cap', () => {
    const name = sanitizeFileName(`${'b'.repeat(150)}.exe`, PDF);
    expect(name).toHaveLength(MAX_FILE_NAME_LENGTH);
    expect(name.endsWith('.pdf')).toBe(true);
  });

  it('normalizes Unicode so the same name is stored the same way', () => {
    expect(sanitizeFileName('Cafe\u0301 co-op.pdf', PDF)).toBe('Café co-op.pdf');
  });

  it('removes zero-width and other invisible format characters', () => {
    const invisible = [
      '\u200B',
      '\u200C',
      '\u200D',
      '\u200E',
      '\u200F',
      '\u061C',
      '\uFEFF',
      '\u202A',
      '\u2066',
    ];
    for (const character of invisible) {
      expect(sanitizeFileName(`in${character}voice.pdf`, PDF)).toBe('invoice.pdf');
    }
  });

  it.each([
    ['CON.pdf', '_CON.pdf'],
    ['con', '_con.pdf'],
    ['Aux.pdf', '_Aux.pdf'],
    ['nul.tar.pdf', '_nul.tar.pdf'],
    ['COM1.pdf', '_COM1.pdf'],
    ['lpt9.pdf', '_lpt9.pdf'],
    ['PRN .pdf', '_PRN.pdf'],
  ])('prefixes the Windows device name %p', (name, expected) => {
    expect(sanitizeFileName(name, PDF)).toBe(expected);
  });

  it.each([['console.pdf'], ['COM10.pdf'], ['com0.pdf'], ['auxiliary.pdf']])('leaves %p alone', (name) => {
    expect(sanitizeFileName(name, PDF)).toBe(name);
  });
});
