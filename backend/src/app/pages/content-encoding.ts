import type { NextFunction, Request, Response } from 'express';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type ContentCoding = 'br' | 'gzip';

/**
 * The coding to answer with for an Accept-Encoding header: Brotli when accepted, else gzip, else
 * none. A coding with q=0 is refused; `*` stands for every coding not named.
 */
export function chooseEncoding(acceptEncoding: string | undefined): ContentCoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.split(';');
    let weight = 1;
    for (const parameter of parameters) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(parameter);
      if (match) weight = Number(match[1]);
    }
    const coding = name.trim().toLowerCase();
    if (coding && !Number.isNaN(weight)) weights.set(coding, weight);
  }
  const wildcard = weights.get('*') ?? 0;
  const accepts = (coding: ContentCoding): boolean => (weights.get(coding) ?? wildcard) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}

/** Below this an answer fits in one packet anyway; compressing it costs more than it saves. */
const MIN_COMPRESSED_BYTES = 1024;

/**
 * Dynamic answers (the API's JSON) are compressed when complete. For the form's 11.6 kB of data,
 * Brotli quality 3 gives 2.9 kB in about 0.1 ms, as gzip level 6 does; quality 5 saved 0.3 kB
 * more for five times the CPU, a poor trade against the floor this service is held to. Static
 * files come precompressed at the highest levels instead.
 */
export function compressBody(body: Buffer, coding: ContentCoding): Buffer {
  return coding === 'br'
    ? brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 3,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzipSync(body, { level: 6 });
}

/**
 * Compresses answers sent whole (Express's `send`/`json`, which every API answer goes
 * through) when the client accepts it. An answer streamed with `write`, one with a coding of
 * its own, HEAD, 204 and 304 answers, and small ones go out as they are. Every answer says
 * `Vary: Accept-Encoding`, so a cache never hands a compressed answer to a client that did not
 * ask for one.
 */
export function compressAnswers() {
  return (request: Request, response: Response, next: NextFunction): void => {
    response.vary('Accept-Encoding');
    const coding = chooseEncoding(request.headers['accept-encoding']);
    if (coding === null || request.method === 'HEAD') return next();
    let streamed = false;
    const write = response.write;
    const end = response.end;
    response.write = function (this: Response, ...args: Parameters<Response['write']>): boolean {
      streamed = true;
      return write.apply(this, args);
    } as Response['write'];
    response.end = function (this: Response, ...args: unknown[]): Response {
      const [chunk, encoding] = args;
      if (!streamed && !response.headersSent && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) {
        const body =
          typeof chunk === 'string'
            ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
            : chunk;
        if (compressible(response, body)) {
          const compressed = compressBody(body, coding);
          response.setHeader('Content-Encoding', coding);
          response.setHeader('Content-Length', compressed.length);
          const callback = args.find((arg): arg is () => void => typeof arg === 'function');
          return (end as (...endArgs: unknown[]) => Response).call(this, compressed, callback);
        }
      }
      return (end as (...endArgs: unknown[]) => Response).apply(this, args);
    } as Response['end'];
    next();
  };
}

function compressible(response: Response, body: Buffer): boolean {
  const status = response.statusCode;
  if (body.length < MIN_COMPRESSED_BYTES || status === 204 || status === 304) return false;
  if (response.getHeader('Content-Encoding') !== undefined) return false;
  const type = String(response.getHeader('Content-Type') ?? '');
  return /^(?:application\/(?:[\w.+-]*\+)?json|text\/)/i.test(type);
}
