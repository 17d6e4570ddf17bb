import busboy from 'busboy';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { AppError } from '../errors/app-error';
import { UploadErrors } from './upload-errors';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_REQUEST_BYTES } from '../check-ins/upload-policy';

/** The multipart part that carries the file (docs/product-rules.md, "Uploads"). */
const FILE_PART = 'file';

export interface ReceivedFile {
  /** The name as the browser sent it: untrusted until sanitized. */
  clientName: string;
  /** The MIME type the browser declared: untrusted until checked against the bytes. */
  declaredMime: string;
  /** At most MAX_UPLOAD_BYTES + 1 bytes: one more than allowed is enough to refuse it. */
  bytes: Buffer;
}

export interface UploadForm<Admission> {
  /** Text parts (cid, cs, fieldRef, contactId, orgId) sent before the file, the first value of each. */
  fields: ReadonlyMap<string, string>;
  file?: ReceivedFile;
  /** What `admit` answered: the request passed the checks that need only the text parts. */
  admission: Admission;
}

export interface UploadReading<Admission> {
  /**
   * The checks that need only the text parts (checksum, per-contact limit, field allowlist),
   * run before a byte of the file is kept: when the file part starts, or at the end of a body
   * without one. Its refusal is the request's answer.
   */
  admit(fields: ReadonlyMap<string, string>): Promise<Admission>;
  /** The whole body must have arrived within this (408 after it). */
  deadlineMs: number;
  /** Sending slower than this, over any SLOW_WINDOW_MS while the service waits for bytes, is cut (408). */
  minBytesPerSecond: number;
}

/** The link parts that must come before the file (upload rule order, README). */
const LINK_PARTS = ['cid', 'cs'] as const;

/** Generous for five short text parts and one file; anything beyond is not a form of ours. */
const PART_LIMITS: busboy.Limits = {
  fileSize: MAX_UPLOAD_BYTES + 1,
  files: 1,
  fields: 10,
  parts: 12,
  fieldSize: 1024,
};

/** The sending rate is judged over windows this long. */
export const SLOW_WINDOW_MS = 5_000;

/**
 * Reads an upload's multipart body without trusting it. A request that declares more than
 * MAX_UPLOAD_REQUEST_BYTES is refused unread, and a larger stream is cut off when it gets there.
 * The checksum travels inside the body, so the text parts are read first (the browser sends
 * them before the file) and `admit` runs when the file part starts, with the file's bytes held
 * back by the stream until it has answered: a request without a valid link never has a byte of
 * its file kept. A file part before cid and cs is refused (400) unread. Of an admitted file at
 * most MAX_UPLOAD_BYTES + 1 bytes are kept: one more than allowed is refused at once (413). The
 * whole body has `deadlineMs` to arrive, and a trickle below `minBytesPerSecond` is cut earlier.
 */
export function readUploadForm<Admission>(
  request: IncomingMessage,
  reading: UploadReading<Admission>,
): Promise<UploadForm<Admission>> {
  if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) {
    return Promise.reject(UploadErrors.notMultipart());
  }
  if (Number(request.headers['content-length'] ?? 0) > MAX_UPLOAD_REQUEST_BYTES) {
    return Promise.reject(UploadErrors.fileTooLarge());
  }
  return new Promise((resolve, reject) => {
    const fields = new Map<string, string>();
    let file: ReceivedFile | undefined;
    let fileDone: Promise<void> = Promise.resolve();
    let admission: Promise<Admission> | undefined;
    let settled = false;
    let admitted = false;

    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      timers.stop();
      if (parser) {
        request.unpipe(parser);
        parser.destroy();
      }
      // Not read any further: what still arrives waits in the kernel's buffers, not in memory
      // of ours, and the refusal then ends the connection (closeAfterAnswer).
      request.pause();
      reject(error);
    };
    const timers = watchArrival(request, reading, () => admission !== undefined && !admitted, fail);
    const admit = (): Promise<Admission> => {
      admission ??= reading.admit(new Map(fields)).then((value) => {
        admitted = true;
        return value;
      });
      return admission;
    };

    const parser = startParser(request);
    if (!parser) {
      fail(UploadErrors.unreadable());
      return;
    }

    parser.on('field', (name, value) => {
      if (!file && !fields.has(name)) fields.set(name, value);
    });
    parser.on('file', (name, stream, info) => {
      // A body cut short ends its file stream with an error; the parser reports it too.
      stream.on('error', () => fail(UploadErrors.unreadable()));
      if (name !== FILE_PART || admission) {
        stream.resume();
        return;
      }
      if (LINK_PARTS.some((part) => !fields.has(part))) {
        fail(UploadErrors.linkAfterFile());
        return;
      }
      // Not read (so not kept, and the client held back) until the text parts have passed.
      stream.pause();
      fileDone = admit().then(
        () => receiveFile(stream, info).then((received) => void (file = received)),
        (error: unknown) => {
          fail(error);
          throw error;
        },
      );
      fileDone.catch(fail);
    });
    parser.on('close', () => {
      Promise.all([admit(), fileDone]).then(([value]) => {
        if (settled) return;
        settled = true;
        timers.stop();
        resolve({ fields, file, admission: value });
      }, fail);
    });
    parser.on('error', () => fail(UploadErrors.unreadable()));
    request.on('error', () => fail(UploadErrors.unreadable()));
    stopAfterTooManyBytes(request, fail);
    request.pipe(parser);
  });
}

/** The admitted file, at most MAX_UPLOAD_BYTES: one byte more and it is refused (413) at once. */
function receiveFile(stream: Readable, info: busboy.FileInfo): Promise<ReceivedFile> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MAX_UPLOAD_BYTES) {
        stream.destroy();
        reject(UploadErrors.fileTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    stream.on('limit', () => reject(UploadErrors.fileTooLarge()));
    stream.on('end', () =>
      resolve({
        clientName: info.filename ?? '',
        declaredMime: info.mimeType,
        bytes: Buffer.concat(chunks, size),
      }),
    );
    stream.resume();
  });
}

/**
 * The upload's deadline and its floor rate. The rate is not judged while the service itself
 * holds the body back (waiting for the CRM to check the checksum).
 */
function watchArrival(
  request: IncomingMessage,
  reading: Pick<UploadReading<unknown>, 'deadlineMs' | 'minBytesPerSecond'>,
  waitingOnService: () => boolean,
  fail: (error: AppError) => void,
): { stop(): void } {
  let received = 0;
  const count = (chunk: Buffer) => (received += chunk.byteLength);
  request.on('data', count);
  const deadline = setTimeout(() => fail(UploadErrors.timedOut()), reading.deadlineMs);
  let windowStart = 0;
  const floor = (reading.minBytesPerSecond * SLOW_WINDOW_MS) / 1000;
  const slow =
    floor > 0
      ? setInterval(() => {
          const arrived = received - windowStart;
          windowStart = received;
          if (!waitingOnService() && arrived < floor && !request.complete) fail(UploadErrors.tooSlow());
        }, SLOW_WINDOW_MS)
      : undefined;
  return {
    stop: () => {
      clearTimeout(deadline);
      if (slow) clearInterval(slow);
      request.off('data', count);
    },
  };
}

function startParser(request: IncomingMessage): busboy.Busboy | undefined {
  try {
    // Browsers send file names as raw UTF-8; busboy's default would read them as latin1.
    return busboy({ headers: request.headers, defParamCharset: 'utf8', limits: PART_LIMITS });
  } catch {
    // busboy refuses a multipart content type without a boundary.
    return undefined;
  }
}

/** A chunked body has no Content-Length to refuse up front: count it as it arrives. */
function stopAfterTooManyBytes(request: IncomingMessage, fail: (error: AppError) => void): void {
  let received = 0;
  const count = (chunk: Buffer) => {
    received += chunk.byteLength;
    if (received <= MAX_UPLOAD_REQUEST_BYTES) return;
    request.off('data', count);
    fail(UploadErrors.fileTooLarge());
  };
  request.on('data', count);
}

/** How long a refused body's connection stays open after the answer, before it is closed. */
export const LINGER_MS = 2_000;

/**
 * Ends the connection once an answer given before the body was read to its end has gone out.
 * Closing at once would make the client's next write meet a reset, and a reset throws away the
 * answer the client has not read yet: it would see a broken connection instead of the 413. So
 * the service stops writing (the client reads the answer, then the end of the stream) and keeps
 * the connection for up to LINGER_MS, then closes: a lingering close, as web servers do. The
 * rest of the body is not read meanwhile (the sender is held back by TCP): reading and dropping
 * it cost a flood of refused uploads hundreds of MiB of short-lived buffers.
 */
export function closeAfterAnswer(request: IncomingMessage, response: ServerResponse): void {
  response.once('finish', () => {
    const socket = request.socket;
    request.pause();
    socket.end();
    const lingering = setTimeout(() => socket.destroy(), LINGER_MS);
    lingering.unref();
    socket.once('close', () => clearTimeout(lingering));
  });
}
