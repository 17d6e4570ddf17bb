import type { ErrorBody, UploadResponse } from '@checkin/contract';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { OwnerAccessService } from '../src/app/auth/owner-access.service';
import { CRM_CLIENT } from '../src/app/crm/crm-client';
import type { RecordedCall } from '@checkin/civicrm-fake/emulator';
import { CONTACT_CUSTOM_GROUP } from '../src/app/crm/crm-names';
import {
  createDemoModel,
  DEMO_CHECKSUM,
  DEMO_ORG_ID,
  DEMO_PERSON_ID,
} from '../src/app/crm/in-memory/demo-data';
import type { InMemoryCrmClient } from '../src/app/crm/in-memory/in-memory-crm.client';
import { MAX_FILE_NAME_LENGTH, MAX_UPLOAD_BYTES } from '../src/app/check-ins/upload-policy';
import { LINGER_MS, SLOW_WINDOW_MS } from '../src/app/upload/upload-form';
import { UploadGate } from '../src/app/upload/upload-gate';
import { ownerQuery, startTestApp, type TestApp } from './support/test-app';

const FIXTURES = join(__dirname, 'fixtures/files');
const DEMO_LINK = {
  cid: String(DEMO_PERSON_ID),
  cs: DEMO_CHECKSUM,
  contactId: String(DEMO_PERSON_ID),
  orgId: String(DEMO_ORG_ID),
};
const PDF = 'application/pdf';
const FILE_PART_HEAD =
  '--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n';
const IGNORED_PART_HEAD =
  '--x\r\nContent-Disposition: form-data; name="attachment"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n';

interface FilePart {
  bytes: Buffer;
  name: string;
  type: string;
}

interface UploadRequest {
  file?: FilePart;
  fieldRef?: string;
  link?: Record<string, string>;
}

function fixture(name: string): Buffer {
  return readFileSync(join(FIXTURES, name));
}

/** A PDF of exactly `size` bytes: a real header, then padding. */
function pdfOfSize(size: number): Buffer {
  const header = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1');
  return Buffer.concat([header, Buffer.alloc(size - header.byteLength, 0x20)]);
}

interface RawPart {
  name: string;
  value: Buffer | string;
  fileName?: string;
  /** Sent as RFC 5987 `filename*` (percent-encoded UTF-8), which may carry any character. */
  encodedFileName?: string;
  type?: string;
}

/**
 * A multipart body written byte by byte, for what FormData would escape (control characters in
 * a file name) and for part orders a browser does not choose.
 */
function rawMultipart(parts: RawPart[]) {
  const boundary = '----checkin-test-boundary-7MA4YWxkTrZu0gW';
  const chunks = parts.flatMap((part) => {
    const disposition = [
      `form-data; name="${part.name}"`,
      ...(part.fileName === undefined ? [] : [`filename="${part.fileName}"`]),
      ...(part.encodedFileName === undefined
        ? []
        : [`filename*=UTF-8''${encodeURIComponent(part.encodedFileName)}`]),
    ].join('; ');
    const headers = [
      `Content-Disposition: ${disposition}`,
      ...(part.type ? [`Content-Type: ${part.type}`] : []),
    ];
    return [
      Buffer.from(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`, 'utf8'),
      Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value, 'utf8'),
      Buffer.from('\r\n'),
    ];
  });
  return {
    body: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

describe('POST /api/upload', () => {
  let service: TestApp;

  beforeAll(async () => {
    service = await startTestApp({
      emulator: { model: createDemoModel() },
      // A 5 MB file travels to the CRM as 7 MB of base64: give it the production timeout.
      env: {
        RATE_LIMIT_UPLOADS_PER_MINUTE: '1000',
        RATE_LIMIT_UPLOAD_REQUESTS_PER_MINUTE: '1000',
        CRM_TIMEOUT_MS: '10000',
      },
    });
  });

  afterAll(async () => {
    await service.close();
  });

  beforeEach(() => {
    service.emulator.reset();
    service.app.get(OwnerAccessService).clear();
  });

  /** As a browser sends it: FormData with the link parts, fieldRef, then the file. */
  function upload({ file, fieldRef = 'Certificate_of_Incorporation', link = DEMO_LINK }: UploadRequest) {
    const form = new FormData();
    for (const [key, value] of Object.entries(link)) form.set(key, value);
    form.set('fieldRef', fieldRef);
    if (file) form.set('file', new Blob([file.bytes], { type: file.type }), file.name);
    return fetch(`${service.url}/api/upload`, { method: 'POST', body: form });
  }

  function postRaw(body: Buffer, contentType: string) {
    return fetch(`${service.url}/api/upload`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': contentType },
    });
  }

  async function stored(response: Response): Promise<UploadResponse> {
    expect(response.status).toBe(201);
    return (await response.json()) as UploadResponse;
  }

  async function refusal(response: Response, status: number): Promise<ErrorBody> {
    expect(response.status).toBe(status);
    const body = (await response.json()) as ErrorBody;
    expect(body.statusCode).toBe(status);
    return body;
  }

  function fileCreates(): RecordedCall[] {
    return service.emulator.callsTo('File', 'create');
  }

  function storedName(): unknown {
    return (fileCreates()[0]?.params['values'] as Record<string, unknown> | undefined)?.['file_name'];
  }

  describe('accepts every allowed type', () => {
    it.each([
      ['sample.pdf', PDF],
      ['sample.doc', 'application/msword'],
      ['sample.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['sample.xls', 'application/vnd.ms-excel'],
      ['sample.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['sample.jpg', 'image/jpeg'],
      ['sample.png', 'image/png'],
      ['sample.gif', 'image/gif'],
      ['sample.webp', 'image/webp'],
    ])('stores %s (%s) as one unlinked CRM file with base64 content', async (name, type) => {
      const bytes = fixture(name);

      const file = await stored(await upload({ file: { bytes, name, type } }));

      // The answer names the file as CiviCRM stored it (README, "Uploads").
      expect(file).toEqual({
        id: expect.any(Number),
        file_name: service.emulator.model.getFile(file.id)?.file_name,
        receipt: expect.any(String),
      });
      expect(service.emulator.writes().map((call) => `${call.entity}.${call.action}`)).toEqual([
        'File.create',
      ]);
      const values = fileCreates()[0]?.params['values'] as Record<string, unknown>;
      expect(Object.keys(values).sort()).toEqual(['content', 'file_name', 'mime_type']);
      expect(values['file_name']).toBe(name);
      expect(values['mime_type']).toBe(type);
      expect(Buffer.from(String(values['content']), 'base64').equals(bytes)).toBe(true);
      expect(service.emulator.model.getFile(file.id)?.content.equals(bytes)).toBe(true);
    });
  });

  it('accepts a file of exactly 5 MB', async () => {
    const bytes = pdfOfSize(MAX_UPLOAD_BYTES);

    const file = await stored(await upload({ file: { bytes, name: 'scan.pdf', type: PDF } }));

    expect(service.emulator.model.getFile(file.id)?.size).toBe(MAX_UPLOAD_BYTES);
  });

  it('refuses a file part sent before cid and cs with 400, without reading the file', async () => {
    const { body, contentType } = rawMultipart([
      { name: 'file', value: fixture('sample.png'), fileName: 'site.png', type: 'image/png' },
      { name: 'fieldRef', value: 'Feasibility_study' },
      { name: 'cs', value: DEMO_CHECKSUM },
      { name: 'cid', value: String(DEMO_PERSON_ID) },
    ]);

    expect((await refusal(await postRaw(body, contentType), 400)).code).toBe('BAD_REQUEST');
    expect(service.emulator.calls).toEqual([]);
  });

  it('takes the text parts in any order before the file', async () => {
    const { body, contentType } = rawMultipart([
      { name: 'fieldRef', value: 'Feasibility_study' },
      { name: 'cs', value: DEMO_CHECKSUM },
      { name: 'cid', value: String(DEMO_PERSON_ID) },
      { name: 'file', value: fixture('sample.png'), fileName: 'site.png', type: 'image/png' },
    ]);

    expect(await stored(await postRaw(body, contentType))).toMatchObject({ file_name: 'site.png' });
  });

  it('stores a file the owner can then submit as the field’s value', async () => {
    const file = await stored(
      await upload({ file: { bytes: fixture('sample.pdf'), name: 'certificate.pdf', type: PDF } }),
    );

    const response = await service.post('/api/submit', {
      ...DEMO_LINK,
      submissionId: crypto.randomUUID(),
      values: { Certificate_of_Incorporation: file },
    });

    expect(response.status).toBe(201);
    expect(service.emulator.callsTo('Contact', 'update')[0]?.params['values']).toEqual({
      [`${CONTACT_CUSTOM_GROUP}.Certificate_of_Incorporation`]: file.id,
    });
  });

  describe('refuses spoofed content (415) and writes nothing', () => {
    it.each([
      ['an ELF executable renamed .pdf', 'executable-elf.pdf', PDF],
      ['a PE executable renamed .pdf', 'executable-pe.pdf', PDF],
      ['a PNG declared as a PDF', 'sample.png', PDF],
      ['a PDF declared as a PNG', 'sample.pdf', 'image/png'],
      ['a Word document declared as an Excel workbook', 'sample.docx', 'application/vnd.ms-excel'],
    ])('%s', async (_what, name, type) => {
      const response = await upload({ file: { bytes: fixture(name), name: 'statement.pdf', type } });

      expect((await refusal(response, 415)).code).toBe('FILE_CONTENT_MISMATCH');
      expect(service.emulator.writes()).toEqual([]);
    });

    it.each([
      ['text/html', 'page.html'],
      ['application/octet-stream', 'statement.pdf'],
      ['image/svg+xml', 'logo.svg'],
      ['application/x-msdownload', 'setup.exe'],
    ])('a file declared as %s', async (type, name) => {
      const response = await upload({ file: { bytes: fixture('sample.pdf'), name, type } });

      expect((await refusal(response, 415)).code).toBe('UNSUPPORTED_FILE_TYPE');
      expect(service.emulator.writes()).toEqual([]);
    });
  });

  describe('refuses what is too large (413) and writes nothing', () => {
    it('refuses 5 MB + 1 byte', async () => {
      const response = await upload({
        file: { bytes: pdfOfSize(MAX_UPLOAD_BYTES + 1), name: 'big.pdf', type: PDF },
      });

      expect((await refusal(response, 413)).code).toBe('FILE_TOO_LARGE');
      expect(service.emulator.writes()).toEqual([]);
    });

    /**
     * Sends the start of a multipart upload (`head`), then `chunks` megabytes one after the other
     * until an answer comes, and resolves with the answer and whether the service then closed the
     * connection (within LINGER_MS and a second).
     */
    function sendOversizedUpload(
      headers: Record<string, string>,
      chunks: number,
      head = FILE_PART_HEAD,
    ): Promise<{ status: number; body: string; closed: boolean }> {
      return new Promise((resolve, reject) => {
        const request = httpRequest(`${service.url}/api/upload`, {
          method: 'POST',
          headers: { 'Content-Type': 'multipart/form-data; boundary=x', ...headers },
        });
        let answered = false;
        let closed = false;
        request.on('socket', (socket) => socket.once('close', () => (closed = true)));
        request.on('response', (response) => {
          answered = true;
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => {
            const deadline = Date.now() + LINGER_MS + 1_000;
            const waitForClose = (): void => {
              if (closed || Date.now() > deadline) {
                resolve({ status: response.statusCode ?? 0, body: text, closed });
                request.destroy();
              } else setTimeout(waitForClose, 20);
            };
            waitForClose();
          });
        });
        // Writes fail once the service has answered and closed the connection: that is the point.
        request.on('error', (error) => (answered ? undefined : reject(error)));
        request.write(head);
        const megabyte = Buffer.alloc(1024 * 1024, 0x20);
        const send = (left: number): void => {
          if (answered || left === 0 || request.destroyed) return;
          request.write(megabyte, () => send(left - 1));
        };
        send(chunks);
      });
    }

    it('cuts off an admitted file once it passes 5 MB, without waiting for the rest', async () => {
      const link = Object.entries(DEMO_LINK)
        .map(([name, value]) => `--x\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
        .join('');
      const head = `${link}--x\r\nContent-Disposition: form-data; name="fieldRef"\r\n\r\nBusiness_plan\r\n${FILE_PART_HEAD}`;
      const answer = await sendOversizedUpload({}, 9, head);

      expect(answer.status).toBe(413);
      expect((JSON.parse(answer.body) as ErrorBody).code).toBe('FILE_TOO_LARGE');
      expect(answer.closed).toBe(true);
      expect(service.emulator.writes()).toEqual([]);
    });

    it('refuses a request declaring more than 10 MB before reading its body, then closes', async () => {
      // Only the start of the promised body is ever sent.
      const answer = await sendOversizedUpload({ 'Content-Length': String(11 * 1024 * 1024) }, 0);

      expect(answer.status).toBe(413);
      expect((JSON.parse(answer.body) as ErrorBody).code).toBe('FILE_TOO_LARGE');
      expect(answer.closed).toBe(true);
      expect(service.emulator.calls).toEqual([]);
    });

    it('cuts off a body sent in chunks once it passes 10 MB, and the client still reads the 413', async () => {
      // A part the service does not keep (not named file): only the request cap can stop it.
      const answer = await sendOversizedUpload({}, 32, IGNORED_PART_HEAD);

      expect(answer.status).toBe(413);
      expect((JSON.parse(answer.body) as ErrorBody).code).toBe('FILE_TOO_LARGE');
      expect(answer.closed).toBe(true);
      expect(service.emulator.calls).toEqual([]);
    });
  });

  describe('stores a safe name (docs/decisions.md, "Limits")', () => {
    it.each([
      ['../../etc/passwd.pdf', 'passwd.pdf'],
      ['C:\\Users\\owner\\scan.pdf', 'scan.pdf'],
      ['.hidden.pdf', 'hidden.pdf'],
      ['notes.html', 'notes.html.pdf'],
    ])('stores %p as %p', async (name, expected) => {
      const file = await stored(await upload({ file: { bytes: fixture('sample.pdf'), name, type: PDF } }));

      expect(storedName()).toBe(expected);
      expect(file.file_name).toBe(service.emulator.model.getFile(file.id)?.file_name);
    });

    it('removes the path parts of a Windows-style traversal', async () => {
      const file = await stored(
        await upload({ file: { bytes: fixture('sample.png'), name: '..\\..\\x.png', type: 'image/png' } }),
      );

      expect(file.file_name).toBe('x.png');
    });

    it('removes control characters', async () => {
      const { body, contentType } = rawMultipart([
        ...Object.entries(DEMO_LINK).map(([name, value]) => ({ name, value })),
        { name: 'fieldRef', value: 'Business_plan' },
        {
          name: 'file',
          value: fixture('sample.pdf'),
          encodedFileName: 're\u0000po\u001frt\u007f\t\r\n\u202e.pdf',
          type: PDF,
        },
      ]);

      const file = await stored(await postRaw(body, contentType));

      expect(file.file_name).toBe('report.pdf');
      expect(storedName()).toBe('report.pdf');
    });

    it('refuses a part header carrying raw control characters as unreadable', async () => {
      const { body, contentType } = rawMultipart([
        ...Object.entries(DEMO_LINK).map(([name, value]) => ({ name, value })),
        { name: 'fieldRef', value: 'Business_plan' },
        { name: 'file', value: fixture('sample.pdf'), fileName: 're\u0001port.pdf', type: PDF },
      ]);

      expect((await refusal(await postRaw(body, contentType), 400)).code).toBe('BAD_REQUEST');
      expect(service.emulator.writes()).toEqual([]);
    });

    it('caps a 300-character name at 120, keeping the extension', async () => {
      const name = `${'Riverbend market study '.repeat(13).slice(0, 296)}.pdf`;

      await stored(await upload({ file: { bytes: fixture('sample.pdf'), name, type: PDF } }));

      const sent = String(storedName());
      expect(sent).toHaveLength(MAX_FILE_NAME_LENGTH);
      expect(sent.endsWith('.pdf')).toBe(true);
      expect(name.startsWith(sent.slice(0, 100))).toBe(true);
    });
  });

  describe('refuses a bad request (400) and writes nothing', () => {
    it.each([['Equity_share'], ['Unknown_field'], ['']])('refuses the fieldRef %p', async (fieldRef) => {
      const response = await upload({
        file: { bytes: fixture('sample.pdf'), name: 'a.pdf', type: PDF },
        fieldRef,
      });

      expect((await refusal(response, 400)).code).toBe('FIELD_NOT_ALLOWED');
      expect(service.emulator.writes()).toEqual([]);
    });

    it('refuses a request without a file', async () => {
      expect((await refusal(await upload({}), 400)).code).toBe('FILE_MISSING');
      expect(service.emulator.writes()).toEqual([]);
    });

    it('refuses an empty file', async () => {
      const response = await upload({ file: { bytes: Buffer.alloc(0), name: 'empty.pdf', type: PDF } });

      expect((await refusal(response, 400)).code).toBe('FILE_MISSING');
    });

    it('refuses a body that is not multipart', async () => {
      const response = await service.post('/api/upload', { ...DEMO_LINK, fieldRef: 'Business_plan' });

      expect((await refusal(response, 400)).code).toBe('BAD_REQUEST');
      expect(service.emulator.calls).toEqual([]);
    });

    it('refuses a multipart body that is cut short in the middle of the file', async () => {
      const { body, contentType } = rawMultipart([
        ...Object.entries(DEMO_LINK).map(([name, value]) => ({ name, value })),
        { name: 'fieldRef', value: 'Business_plan' },
        { name: 'file', value: fixture('sample.pdf'), fileName: 'plan.pdf', type: PDF },
      ]);

      const response = await postRaw(body.subarray(0, body.byteLength - 200), contentType);

      expect((await refusal(response, 400)).code).toBe('BAD_REQUEST');
      expect(service.emulator.writes()).toEqual([]);
    });

    it('keeps serving after a client hangs up in the middle of an upload', async () => {
      const { body, contentType } = rawMultipart([
        { name: 'file', value: pdfOfSize(1024 * 1024), fileName: 'plan.pdf', type: PDF },
      ]);
      await new Promise<void>((resolve) => {
        const request = httpRequest(`${service.url}/api/upload`, {
          method: 'POST',
          headers: { 'Content-Type': contentType, 'Content-Length': String(body.byteLength) },
        });
        request.on('error', () => resolve());
        request.write(body.subarray(0, 512 * 1024), () => request.destroy());
      });

      const file = await stored(
        await upload({ file: { bytes: fixture('sample.gif'), name: 'logo.gif', type: 'image/gif' } }),
      );
      expect(file.file_name).toBe('logo.gif');
    });
  });

  describe('checks the checksum first', () => {
    it('answers 401 to a wrong checksum, whatever else is wrong, and writes nothing', async () => {
      const link = { ...DEMO_LINK, cs: 'wrong' };
      const tooLarge = { bytes: pdfOfSize(MAX_UPLOAD_BYTES + 1), name: 'big.pdf', type: PDF };
      const spoofed = { bytes: fixture('executable-elf.pdf'), name: 'x.pdf', type: PDF };

      for (const request of [
        { link, file: tooLarge },
        { link, file: spoofed },
        { link, fieldRef: 'Nope' },
      ]) {
        expect((await refusal(await upload(request), 401)).code).toBe('CHECKSUM_INVALID');
      }
      expect(service.emulator.writes()).toEqual([]);
    });

    it('answers 400 when the file comes without a checksum part before it, 401 without either', async () => {
      const link: Record<string, string> = { ...DEMO_LINK };
      delete link['cs'];
      const response = await upload({
        file: { bytes: fixture('sample.pdf'), name: 'a.pdf', type: PDF },
        link,
      });

      expect((await refusal(response, 400)).code).toBe('BAD_REQUEST');
      expect((await refusal(await upload({ link }), 401)).code).toBe('CHECKSUM_INVALID');
      expect(service.emulator.calls).toEqual([]);
    });

    it('answers 403 for an organization the person is not tied to', async () => {
      const response = await upload({
        file: { bytes: fixture('sample.pdf'), name: 'a.pdf', type: PDF },
        link: { ...DEMO_LINK, orgId: '103' },
      });

      expect((await refusal(response, 403)).code).toBe('ORG_NOT_ALLOWED');
      expect(service.emulator.writes()).toEqual([]);
    });
  });

  describe('applies the rules in the documented order (README, upload rules)', () => {
    const wrongLink = { ...DEMO_LINK, cs: 'wrong' };
    const tooLarge = { bytes: pdfOfSize(MAX_UPLOAD_BYTES + 1), name: 'big.pdf', type: PDF };

    it('a body that is not multipart: 400 before the checksum', async () => {
      const response = await service.post('/api/upload', { ...wrongLink, fieldRef: 'Business_plan' });
      expect((await refusal(response, 400)).code).toBe('BAD_REQUEST');
      expect(service.emulator.calls).toEqual([]);
    });

    it('a wrong checksum: 401 before the field, the size and the type', async () => {
      const html = { bytes: pdfOfSize(MAX_UPLOAD_BYTES + 1), name: 'big.html', type: 'text/html' };
      const response = await upload({ link: wrongLink, fieldRef: 'Nope', file: html });
      expect((await refusal(response, 401)).code).toBe('CHECKSUM_INVALID');
    });

    it('a field not on the allowlist: 400 before the size', async () => {
      const response = await upload({ fieldRef: 'Equity_share', file: tooLarge });
      expect((await refusal(response, 400)).code).toBe('FIELD_NOT_ALLOWED');
    });

    it('a file over 5 MB: 413 before the type', async () => {
      const response = await upload({ file: { ...tooLarge, type: 'text/html' } });
      expect((await refusal(response, 413)).code).toBe('FILE_TOO_LARGE');
    });

    it('a type not on the allowlist: 415 before the leading bytes', async () => {
      const response = await upload({
        file: { bytes: fixture('executable-elf.pdf'), name: 'x', type: 'text/html' },
      });
      expect((await refusal(response, 415)).code).toBe('UNSUPPORTED_FILE_TYPE');
    });

    it('leading bytes that do not match: 415 before anything is written', async () => {
      const response = await upload({
        file: { bytes: fixture('executable-elf.pdf'), name: 'x.pdf', type: PDF },
      });
      expect((await refusal(response, 415)).code).toBe('FILE_CONTENT_MISMATCH');
      expect(service.emulator.writes()).toEqual([]);
    });
  });

  it('answers 502 when the CRM refuses the file record', async () => {
    service.emulator.injectFault({ kind: 'http500', entity: 'File', action: 'create' });

    const response = await upload({ file: { bytes: fixture('sample.pdf'), name: 'a.pdf', type: PDF } });

    expect((await refusal(response, 502)).code).toBe('CRM_UNAVAILABLE');
    expect(fileCreates()).toHaveLength(1);
  });
});

describe('POST /api/upload rate limit', () => {
  let service: TestApp;

  beforeAll(async () => {
    service = await startTestApp({
      emulator: { model: createDemoModel() },
      env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '1' },
    });
  });

  afterAll(async () => {
    await service.close();
  });

  function upload(fieldRef: string) {
    const form = new FormData();
    for (const [key, value] of Object.entries(DEMO_LINK)) form.set(key, value);
    form.set('fieldRef', fieldRef);
    form.set('file', new Blob([fixture('sample.pdf')], { type: PDF }), 'a.pdf');
    return fetch(`${service.url}/api/upload`, { method: 'POST', body: form });
  }

  it('answers 429 with Retry-After after the limit, before looking at the field, and writes nothing', async () => {
    expect((await upload('Business_plan')).status).toBe(201);
    service.emulator.clearCalls();

    const response = await upload('Not_a_file_field');

    expect(response.status).toBe(429);
    expect(((await response.json()) as ErrorBody).code).toBe('RATE_LIMITED');
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(service.emulator.writes()).toEqual([]);
  });
});

describe('POST /api/upload in stub mode', () => {
  let service: TestApp;

  beforeAll(async () => {
    service = await startTestApp({ stub: true });
  });

  afterAll(async () => {
    await service.close();
  });

  it('stores the file in the built-in CRM', async () => {
    const bytes = fixture('sample.jpg');
    const form = new FormData();
    for (const [key, value] of Object.entries(DEMO_LINK)) form.set(key, value);
    form.set('fieldRef', 'Certificate_of_Incorporation');
    form.set('file', new Blob([bytes], { type: 'image/jpeg' }), 'certificate.jpg');

    const response = await fetch(`${service.url}/api/upload`, { method: 'POST', body: form });

    expect(response.status).toBe(201);
    const file = (await response.json()) as UploadResponse;
    const crm = service.app.get<InMemoryCrmClient>(CRM_CLIENT);
    expect(crm.model.getFile(file.id)?.content.equals(bytes)).toBe(true);
    expect(service.emulator.calls).toEqual([]);
  });
});

/** Sends the text parts of a valid upload and the start of its file, then `more` bytes a time. */
function stalledUpload(
  url: string,
  options: { everyMs?: number; link?: Record<string, string> } = {},
): { answer: Promise<{ status: number; body: string; at: number }>; stop(): void } {
  const link = options.link ?? DEMO_LINK;
  const request = httpRequest(`${url}/api/upload`, {
    method: 'POST',
    headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
  });
  let trickle: NodeJS.Timeout | undefined;
  const answer = new Promise<{ status: number; body: string; at: number }>((resolve, reject) => {
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text, at: Date.now() }));
    });
    request.on('error', reject);
  });
  answer.catch(() => undefined);
  const parts = Object.entries({ ...link, fieldRef: 'Business_plan' })
    .map(([name, value]) => `--x\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  request.write(`${parts}${FILE_PART_HEAD}`);
  if (options.everyMs) trickle = setInterval(() => request.write(' '), options.everyMs);
  return {
    answer,
    stop: () => {
      if (trickle) clearInterval(trickle);
      request.destroy();
    },
  };
}

describe('POST /api/upload under abuse', () => {
  it('refuses uploads beyond UPLOAD_MAX_IN_FLIGHT with 429 and Retry-After, before reading them', async () => {
    const service = await startTestApp({
      emulator: { model: createDemoModel() },
      env: { UPLOAD_MAX_IN_FLIGHT: '2' },
    });
    try {
      // The link's access is checked and cached first, so the stalled uploads make no CRM call
      // that could land after clearCalls below and be taken for the refused request's.
      expect((await service.get(`/api/data?${ownerQuery(DEMO_LINK)}`)).status).toBe(200);
      const stalled = [stalledUpload(service.url), stalledUpload(service.url)];
      try {
        await waitFor(() => service.app.get(UploadGate).current === 2);
        service.emulator.clearCalls();
        const refused = await service.post('/api/upload', { not: 'even multipart' });
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(await refused.json()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
        expect(service.emulator.calls).toEqual([]);
      } finally {
        stalled.forEach((upload) => upload.stop());
      }
      await waitFor(() => service.app.get(UploadGate).current === 0);
      const form = new FormData();
      for (const [key, value] of Object.entries(DEMO_LINK)) form.set(key, value);
      form.set('fieldRef', 'Business_plan');
      form.set('file', new Blob([fixture('sample.pdf')], { type: PDF }), 'plan.pdf');
      expect((await fetch(`${service.url}/api/upload`, { method: 'POST', body: form })).status).toBe(201);
    } finally {
      await service.close();
    }
  });

  it('limits upload requests per address before reading the body', async () => {
    const service = await startTestApp({
      emulator: { model: createDemoModel() },
      env: { RATE_LIMIT_UPLOAD_REQUESTS_PER_MINUTE: '3' },
    });
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 4; attempt += 1) {
        statuses.push((await service.post('/api/upload', { not: 'multipart' })).status);
      }
      expect(statuses).toEqual([400, 400, 400, 429]);
    } finally {
      await service.close();
    }
  });

  it('answers 408 with the error body when the body has not arrived within UPLOAD_DEADLINE_MS', async () => {
    const service = await startTestApp({
      emulator: { model: createDemoModel() },
      env: { UPLOAD_DEADLINE_MS: '1000', UPLOAD_MIN_BYTES_PER_SECOND: '0' },
    });
    const started = Date.now();
    const upload = stalledUpload(service.url, { everyMs: 100 });
    try {
      const answer = await upload.answer;
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 408, code: 'REQUEST_TIMEOUT' });
      expect(answer.at - started).toBeLessThan(2_500);
      expect(service.emulator.writes()).toEqual([]);
    } finally {
      upload.stop();
      await service.close();
    }
  });

  it('cuts a body trickling below UPLOAD_MIN_BYTES_PER_SECOND long before the deadline', async () => {
    const service = await startTestApp({ emulator: { model: createDemoModel() } });
    const started = Date.now();
    const upload = stalledUpload(service.url, { everyMs: 500 });
    try {
      const answer = await upload.answer;
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'REQUEST_TIMEOUT' });
      expect(answer.at - started).toBeLessThan(2 * SLOW_WINDOW_MS + 1_000);
    } finally {
      upload.stop();
      await service.close();
    }
  }, 20_000);
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
