import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentMatchesType, detectContentType } from './file-signature';
import { allowedFileType, type AllowedFileType } from '../check-ins/upload-policy';

const FIXTURES = join(__dirname, '../../../test/fixtures/files');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

function typeFor(mime: string): AllowedFileType {
  const type = allowedFileType(mime);
  if (!type) throw new Error(`${mime} is not on the allowlist`);
  return type;
}

describe('leading-byte check', () => {
  it.each([
    ['sample.pdf', 'application/pdf'],
    ['sample.doc', 'application/msword'],
    ['sample.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['sample.xls', 'application/vnd.ms-excel'],
    ['sample.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['sample.jpg', 'image/jpeg'],
    ['sample.png', 'image/png'],
    ['sample.gif', 'image/gif'],
    ['sample.webp', 'image/webp'],
  ])('accepts %s declared as %s', async (file, mime) => {
    await expect(contentMatchesType(fixture(file), typeFor(mime))).resolves.toBe(true);
  });

  it('accepts DOC and XLS by their OLE2 container header alone', async () => {
    const ole2 = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(504)]);
    await expect(detectContentType(ole2)).resolves.toBe('application/x-cfb');
    await expect(contentMatchesType(ole2, typeFor('application/msword'))).resolves.toBe(true);
    await expect(contentMatchesType(ole2, typeFor('application/vnd.ms-excel'))).resolves.toBe(true);
  });

  it.each([
    ['an ELF executable', 'executable-elf.pdf', 'application/pdf'],
    ['a PE executable', 'executable-pe.pdf', 'application/pdf'],
    ['a PNG', 'sample.png', 'application/pdf'],
    ['a PDF', 'sample.pdf', 'image/png'],
    ['a DOCX', 'sample.docx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    [
      'an OLE2 container',
      'sample.doc',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ],
  ])('refuses %s (%s) declared as %s', async (_what, file, mime) => {
    await expect(contentMatchesType(fixture(file), typeFor(mime))).resolves.toBe(false);
  });

  it('refuses bytes that match no format at all', async () => {
    await expect(contentMatchesType(Buffer.from('just some text'), typeFor('application/pdf'))).resolves.toBe(
      false,
    );
  });
});
