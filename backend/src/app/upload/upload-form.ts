import busboy from 'busboy';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../errors/app-error';
import { UploadErrors } from './upload-errors';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_REQUEST_BYTES } from './upload-policy';

/** The multipart part that carries the file (spec, upload request). */
export const FILE_PART = 'file';

export interface ReceivedFile {
  /** The name as the browser sent it: untrusted until sanitized. */
  clientName: string;
  /** The MIME type the browser declared: untrusted until checked against the bytes. */
  declaredMime: string;
  /** At most MAX_UPLOAD_BYTES + 1 bytes: one more than allowed is enough to refuse it. */
  bytes: Buffer;
}

export interface UploadForm {
  /** Text parts (cid, cs, fieldRef, contactId, orgId), the first value of each name. */
  fields: ReadonlyMap<string, string>;
  file?: ReceivedFile;
}

/** Generous for five short text parts and one file; anything beyond is not a form of ours. */
const PART_LIMITS: busboy.Limits = {
  fileSize: MAX_UPLOAD_BYTES + 1,
  files: 1,
  fields: 10,
  parts: 12,
  fieldSize: 1024,
};

/**
 * Reads an upload's multipart body without trusting its size: a request that declares more than
 * MAX_UPLOAD_REQUEST_BYTES is refused unread, a larger stream is cut off when it gets there,
 * and of the file only one byte more than the limit is kept while the rest is drained. Reading
 * comes first because the checksum (upload rule 1) travels inside the body.
 */
export function readUploadForm(request: IncomingMessage): Promise<UploadForm> {
  if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) {
    return Promise.reject(UploadErrors.notMultipart());
  }
  if (Number(request.headers['content-length'] ?? 0) > MAX_UPLOAD_REQUEST_BYTES) {
    return Promise.reject(UploadErrors.fileTooLarge());
  }
  return new Promise((resolve, reject) => {
    const fields = new Map<string, string>();
    let file: ReceivedFile | undefined;
    const parser = startParser(request, reject);
    if (!parser) return;

    parser.on('field', (name, value) => {
      if (!fields.has(name)) fields.set(name, value);
    });
    parser.on('file', (name, stream, info) => {
      // A body cut short ends its file stream with an error; the parser reports it too.
      stream.on('error', () => reject(UploadErrors.unreadable()));
      if (name !== FILE_PART || file) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        file = { clientName: info.filename ?? '', declaredMime: info.mimeType, bytes: Buffer.concat(chunks) };
      });
    });
    parser.on('close', () => resolve({ fields, file }));
    parser.on('error', () => reject(UploadErrors.unreadable()));
    request.on('error', () => reject(UploadErrors.unreadable()));
    stopAfterTooManyBytes(request, parser, reject);
    request.pipe(parser);
  });
}

function startParser(request: IncomingMessage, reject: (error: AppError) => void): busboy.Busboy | undefined {
  try {
    // Browsers send file names as raw UTF-8; busboy's default would read them as latin1.
    return busboy({ headers: request.headers, defParamCharset: 'utf8', limits: PART_LIMITS });
  } catch {
    // busboy refuses a multipart content type without a boundary.
    reject(UploadErrors.unreadable());
    return undefined;
  }
}

/** A chunked body has no Content-Length to refuse up front: count it as it arrives. */
function stopAfterTooManyBytes(
  request: IncomingMessage,
  parser: busboy.Busboy,
  reject: (error: AppError) => void,
): void {
  let received = 0;
  const count = (chunk: Buffer) => {
    received += chunk.byteLength;
    if (received <= MAX_UPLOAD_REQUEST_BYTES) return;
    request.off('data', count);
    reject(UploadErrors.fileTooLarge());
    request.unpipe(parser);
    parser.destroy();
    // Dropped from here on; the refusal then ends the connection (closeAfterAnswer).
    request.resume();
  };
  request.on('data', count);
}

/** How long the rest of a refused body is read and dropped before the connection is closed. */
export const LINGER_MS = 2_000;

/**
 * Ends the connection once an answer given before the body was read to its end has gone out.
 * Closing at once would make the client's next write meet a reset, and a reset throws away the
 * answer the client has not read yet: it would see a broken connection instead of the 413. So
 * the service stops writing (the client reads the answer, then the end of the stream), drops
 * whatever still arrives for up to LINGER_MS, then closes: a lingering close, as web servers do.
 */
export function closeAfterAnswer(request: IncomingMessage, response: ServerResponse): void {
  response.once('finish', () => {
    const socket = request.socket;
    request.resume();
    socket.end();
    const lingering = setTimeout(() => socket.destroy(), LINGER_MS);
    lingering.unref();
    socket.once('close', () => clearTimeout(lingering));
  });
}
