import { allowedFileType, MAX_UPLOAD_BYTES, UPLOAD_LIMITS } from './upload-policy';

describe('upload policy', () => {
  it('allows the nine listed types and nothing else', () => {
    expect(UPLOAD_LIMITS.mimeTypes).toEqual([
      'application/pdf',
      'application/msword',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.ms-excel',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'image/jpeg',
      'image/png',
      'image/gif',
      'image/webp',
    ]);
    expect(UPLOAD_LIMITS.extensions).toEqual([
      '.pdf',
      '.doc',
      '.docx',
      '.xls',
      '.xlsx',
      '.jpg',
      '.jpeg',
      '.png',
      '.gif',
      '.webp',
    ]);
  });

  it('caps files at 5 MB', () => {
    expect(MAX_UPLOAD_BYTES).toBe(5 * 1024 * 1024);
    expect(UPLOAD_LIMITS.maxBytes).toBe(MAX_UPLOAD_BYTES);
  });

  it('reads a declared type regardless of case and parameters', () => {
    expect(allowedFileType('Application/PDF; charset=binary')?.mime).toBe('application/pdf');
  });

  it.each(['application/octet-stream', 'text/html', 'image/svg+xml', 'application/zip', '', undefined])(
    'allows no file declared as %p',
    (declared) => {
      expect(allowedFileType(declared)).toBeUndefined();
    },
  );
});
