import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { DEMO_CHECKSUM, DEMO_ORG_ID, DEMO_PERSON_ID } from '../../src/app/crm/in-memory/demo-data';

/** What the upload specs send: sample files, raw multipart bodies and uploads that stall. */
const FIXTURES = join(__dirname, '..', 'fixtures', 'files');

/** The demo person's link as the browser's FormData carries it: every part a string. */
export const UPLOAD_LINK: Record<string, string> = {
  cid: String(DEMO_PERSON_ID),
  cs: DEMO_CHECKSUM,
  contactId: String(DEMO_PERSON_ID),
  orgId: String(DEMO_ORG_ID),
};
export const PDF = 'application/pdf';
export const FILE_PART_HEAD =
  '--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n';
export const IGNORED_PART_HEAD =
  '--x\r\nContent-Disposition: form-data; name="attachment"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n';

export interface FilePart {
  bytes: Buffer;
  name: string;
  type: string;
}

export interface UploadRequest {
  file?: FilePart;
  fieldRef?: string;
  link?: Record<string, string>;
}

export function fixture(name: string): Buffer {
  return readFileSync(join(FIXTURES, name));
}

/** A PDF of exactly `size` bytes: a real header, then padding. */
export function pdfOfSize(size: number): Buffer {
  const header = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1');
  return Buffer.concat([header, Buffer.alloc(size - header.byteLength, 0x20)]);
}

export interface RawPart {
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
export function rawMultipart(parts: RawPart[]) {
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

/** As a browser sends it: FormData with the link parts, fieldRef, then the file. */
export function uploadForm({
  file,
  fieldRef = 'Certificate_of_Incorporation',
  link = UPLOAD_LINK,
}: UploadRequest): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(link)) form.set(key, value);
  form.set('fieldRef', fieldRef);
  if (file) form.set('file', new Blob([file.bytes], { type: file.type }), file.name);
  return form;
}

/** POST /api/upload of `request` to the service at `url`, as the browser sends it. */
export function postUpload(url: string, request: UploadRequest): Promise<Response> {
  return fetch(`${url}/api/upload`, { method: 'POST', body: uploadForm(request) });
}

/** Sends the text parts of a valid upload and the start of its file, then `more` bytes a time. */
export function stalledUpload(
  url: string,
  options: { everyMs?: number; link?: Record<string, string> } = {},
): { answer: Promise<{ status: number; body: string; at: number }>; stop(): void } {
  const link = options.link ?? UPLOAD_LINK;
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

export async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
