import type { ErrorBody, UploadResponse } from '@checkin/contract';
import { request as httpRequest } from 'node:http';
import { OwnerAccessService } from '../src/app/auth/owner-access.service';
import type { RecordedCall } from '@checkin/civicrm-fake/emulator';
import { CONTACT_CUSTOM_GROUP } from '../src/app/crm/crm-names';
import { createDemoModel, DEMO_CHECKSUM, DEMO_PERSON_ID } from '../src/app/crm/in-memory/demo-data';
import { MAX_FILE_NAME_LENGTH, MAX_UPLOAD_BYTES } from '../src/app/check-ins/upload-policy';
import { LINGER_MS } from '../src/app/upload/upload-form';
import {
  fixture,
  FILE_PART_HEAD,
  IGNORED_PART_HEAD,
  PDF,
  pdfOfSize,
  postUpload,
  rawMultipart,
  UPLOAD_LINK,
  type UploadRequest,
} from './support/upload-requests';
import { sharedTestApp } from './support/shared-app';

describe('POST /api/upload', () => {
  const service = sharedTestApp(
    {
      emulator: { model: createDemoModel() },
      // A 5 MB file travels to the CRM as 7 MB of base64: give it the production timeout.
      env: {
        RATE_LIMIT_UPLOADS_PER_MINUTE: '1000',
        RATE_LIMIT_UPLOAD_REQUESTS_PER_MINUTE: '1000',
        CRM_TIMEOUT_MS: '10000',
      },
    },
    { resetEmulator: false },
  );

  beforeEach(() => {
    service.emulator.reset();
    service.app.get(OwnerAccessService).clear();
  });

  function upload(request: UploadRequest) {
    return postUpload(service.url, request);
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
      ...UPLOAD_LINK,
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
      const link = Object.entries(UPLOAD_LINK)
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
        ...Object.entries(UPLOAD_LINK).map(([name, value]) => ({ name, value })),
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
        ...Object.entries(UPLOAD_LINK).map(([name, value]) => ({ name, value })),
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
      const response = await service.post('/api/upload', { ...UPLOAD_LINK, fieldRef: 'Business_plan' });

      expect((await refusal(response, 400)).code).toBe('BAD_REQUEST');
      expect(service.emulator.calls).toEqual([]);
    });

    it('refuses a multipart body that is cut short in the middle of the file', async () => {
      const { body, contentType } = rawMultipart([
        ...Object.entries(UPLOAD_LINK).map(([name, value]) => ({ name, value })),
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
      const link = { ...UPLOAD_LINK, cs: 'wrong' };
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
      const link: Record<string, string> = { ...UPLOAD_LINK };
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
        link: { ...UPLOAD_LINK, orgId: '103' },
      });

      expect((await refusal(response, 403)).code).toBe('ORG_NOT_ALLOWED');
      expect(service.emulator.writes()).toEqual([]);
    });
  });

  describe('applies the rules in the documented order (README, upload rules)', () => {
    const wrongLink = { ...UPLOAD_LINK, cs: 'wrong' };
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
