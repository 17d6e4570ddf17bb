import { TestBed } from '@angular/core/testing';
import { Subject } from 'rxjs';
import { LINK } from './testing/form-payload.fixture';
import { FormApi, type UploadEvent } from './form-api';
import { acceptAttribute, allowedTypesText, FileUploads, fileProblem, formatMegabytes } from './file-uploads';

const LIMITS = {
  maxBytes: 5 * 1024 * 1024,
  mimeTypes: ['application/pdf', 'image/png'],
  extensions: ['.pdf', '.png'],
};

function file(name: string, type: string, size: number): File {
  return new File([new Uint8Array(size)], name, { type });
}

describe('fileProblem', () => {
  it('accepts an allowed type within the size limit', () => {
    expect(fileProblem(file('plan.pdf', 'application/pdf', 5 * 1024 * 1024), LIMITS)).toBeNull();
  });

  it('refuses a file over the limit by one byte', () => {
    expect(fileProblem(file('big.pdf', 'application/pdf', 5 * 1024 * 1024 + 1), LIMITS)).toBe(
      'big.pdf is larger than 5 MB. Choose a smaller file.',
    );
  });

  it('refuses a type the server does not accept, naming the ones it does', () => {
    expect(fileProblem(file('tool.exe', 'application/x-msdownload', 10), LIMITS)).toBe(
      'tool.exe is not a type of file this form accepts. Choose a PDF or PNG file.',
    );
    expect(fileProblem(file('notes', '', 10), LIMITS)).toContain('not a type of file');
  });

  it('refuses an empty file', () => {
    expect(fileProblem(file('empty.pdf', 'application/pdf', 0), LIMITS)).toContain('is empty');
  });
});

describe('upload limits as text', () => {
  it('describes the limits for people and for the picker', () => {
    expect(allowedTypesText({ ...LIMITS, extensions: ['.pdf', '.doc', '.png'] })).toBe('PDF, DOC or PNG');
    expect(acceptAttribute(LIMITS)).toBe('.pdf,.png,application/pdf,image/png');
    expect(formatMegabytes(5 * 1024 * 1024)).toBe('5 MB');
    expect(formatMegabytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });
});

describe('FileUploads', () => {
  function setUp() {
    const responses: Array<Subject<UploadEvent>> = [];
    TestBed.configureTestingModule({
      providers: [
        FileUploads,
        {
          provide: FormApi,
          useValue: {
            upload: () => {
              const response = new Subject<UploadEvent>();
              responses.push(response);
              return response;
            },
          },
        },
      ],
    });
    return { uploads: TestBed.inject(FileUploads), responses };
  }

  const request = {
    link: LINK,
    contactId: '102',
    orgId: '101',
    fieldRef: 'Business_plan',
    file: file('a.pdf', 'application/pdf', 3),
  };

  it('counts uploads in flight until each completes, fails or is cancelled', () => {
    const { uploads, responses } = setUp();
    expect(uploads.inFlight()).toBe(0);
    uploads.upload(request).subscribe();
    uploads.upload(request).subscribe({ error: () => undefined });
    const cancelled = uploads.upload(request).subscribe();
    expect(uploads.inFlight()).toBe(3);

    responses[0]?.next({ kind: 'done', file: { id: 1, file_name: 'a.pdf' } });
    responses[0]?.complete();
    expect(uploads.inFlight()).toBe(2);
    responses[1]?.error(new Error('failed'));
    expect(uploads.inFlight()).toBe(1);
    cancelled.unsubscribe();
    expect(uploads.inFlight()).toBe(0);
  });

  it('starts counting only when the upload is subscribed to', () => {
    const { uploads } = setUp();
    const pending = uploads.upload(request);
    expect(uploads.inFlight()).toBe(0);
    pending.subscribe();
    expect(uploads.inFlight()).toBe(1);
  });
});
