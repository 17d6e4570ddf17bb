import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { requestIdFrom, runWithRequestId } from './request-context';

const REQUEST_ID_HEADER = 'X-Request-Id';

/** What the one log line per request holds: never a query string (it carries checksums), a body or a header. */
export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  /** True when the client went away before the answer was complete. */
  aborted?: boolean;
}

/**
 * First in the chain: gives the request an id (the proxy's when it is sane), echoes it in the
 * response, runs the rest of the request with it (so every log line carries it) and, when
 * enabled, writes one line when the answer is done.
 */
export function requestLogging(options: { logRequests: boolean }) {
  const logger = new Logger('HTTP');
  return (request: Request, response: Response, next: NextFunction): void => {
    const requestId = requestIdFrom(request.header(REQUEST_ID_HEADER));
    response.setHeader(REQUEST_ID_HEADER, requestId);
    if (options.logRequests) {
      const started = process.hrtime.bigint();
      response.once('close', () => {
        const entry = logEntry(request, response, started);
        runWithRequestId(requestId, () => {
          if (entry.status >= 500) logger.error(entry);
          else if (entry.status >= 400 || entry.aborted) logger.warn(entry);
          else logger.log(entry);
        });
      });
    }
    runWithRequestId(requestId, next);
  };
}

/** Longer paths are cut in log lines; the service's own routes are all far shorter. */
export const LOGGED_PATH_MAX_CHARS = 200;

/**
 * A path as log lines hold it: its start and, when cut, its full length. The client chooses the
 * path, so without a bound one request could write a log line as long as the server lets an
 * address be (docs/operations.md, "Logs").
 */
export function loggablePath(path: string): string {
  if (path.length <= LOGGED_PATH_MAX_CHARS) return path;
  return `${path.slice(0, LOGGED_PATH_MAX_CHARS)}…(${path.length} chars)`;
}

function logEntry(request: Request, response: Response, started: bigint): RequestLogEntry {
  const durationMs = Number((process.hrtime.bigint() - started) / 1_000n) / 1000;
  return {
    method: request.method,
    // originalUrl keeps the path as the client sent it, before any router rewrote it.
    path: loggablePath(request.originalUrl.split('?', 1)[0] ?? '/'),
    status: response.statusCode,
    durationMs,
    ...(response.writableFinished ? {} : { aborted: true }),
  };
}
