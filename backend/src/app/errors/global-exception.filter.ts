import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import {
  type ErrorBody,
  type ErrorCode,
  REFUSAL_HEADLINES,
  REFUSAL_SENTENCES,
  refusal,
} from '@checkin/contract';
import type { Request, Response } from 'express';
import { CrmError } from '../crm/crm-errors';
import { AppError, INTERNAL_ERROR_MESSAGE, RATE_LIMITED_MESSAGE } from './app-error';
import { loggablePath } from '../logging/request-logging.middleware';

/**
 * Codes for HttpExceptions that carry none of their own. The service's own 401s say which
 * credential failed (CHECKSUM_INVALID, STAFF_KEY_INVALID, ADMIN_KEY_INVALID); any other 401 is
 * only UNAUTHORIZED, never mistaken for a bad link.
 */
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_FILE_TYPE',
  429: 'RATE_LIMITED',
  502: 'CRM_UNAVAILABLE',
  503: 'NOT_READY',
  504: 'CRM_TIMEOUT',
};

/** Nest's own texts for these ("Cannot GET /x", "Payload Too Large") read badly to people. */
const MESSAGE_BY_STATUS: Record<number, string> = {
  404: 'There is nothing at this address.',
  413: 'The request is too large.',
  429: RATE_LIMITED_MESSAGE,
};

/**
 * One place turns every error into the body of docs/decisions.md, "Error bodies": {statusCode, code, message}. CRM details,
 * stack traces and secrets never reach the response; unexpected errors are logged (without
 * request bodies) and answered as a plain 500.
 */
@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const request = http.getRequest<Request>();
    const body = this.toBody(exception, request);
    // A stream that failed half-way has sent its status and headers already: only end it.
    if (response.headersSent) {
      response.end();
      return;
    }
    if (exception instanceof AppError && exception.extra.retryAfterSeconds !== undefined) {
      response.setHeader('Retry-After', String(exception.extra.retryAfterSeconds));
    }
    response.status(body.statusCode).json(body);
  }

  /** The error body for `exception`; also used for the data of a server-rendered page (pages/page-data.ts). */
  toBody(exception: unknown, request: Request): ErrorBody {
    if (exception instanceof AppError) {
      return {
        statusCode: exception.statusCode,
        code: exception.code,
        message: exception.message,
        ...(exception.extra.fields ? { fields: exception.extra.fields } : {}),
        ...(exception.extra.reasons ? { reasons: exception.extra.reasons } : {}),
        ...(exception.extra.problems ? { problems: exception.extra.problems } : {}),
      };
    }
    if (exception instanceof CrmError) {
      this.logger.warn(
        `${request.method} ${loggablePath(request.path)}: ${exception.message}` +
          (exception.fix ? ` (fix: ${exception.fix})` : ''),
      );
      return crmErrorBody(exception);
    }
    if (exception instanceof HttpException) {
      return this.fromHttpException(exception);
    }
    if (isBodyParserError(exception)) return bodyParserErrorBody(exception);
    this.logger.error(
      `${request.method} ${loggablePath(request.path)}: unexpected ${describe(exception)}`,
      exception instanceof Error ? exception.stack : undefined,
    );
    return {
      statusCode: 500,
      code: 'INTERNAL_ERROR',
      message: INTERNAL_ERROR_MESSAGE,
    };
  }

  private fromHttpException(exception: HttpException): ErrorBody {
    const statusCode = exception.getStatus();
    const code = CODE_BY_STATUS[statusCode] ?? (statusCode >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST');
    if (statusCode >= 500) {
      return { statusCode, code, message: INTERNAL_ERROR_MESSAGE };
    }
    if (statusCode === HttpStatus.TOO_MANY_REQUESTS) {
      return { statusCode, code: 'RATE_LIMITED', message: MESSAGE_BY_STATUS[429] ?? exception.message };
    }
    return { statusCode, code, message: MESSAGE_BY_STATUS[statusCode] ?? readableMessage(exception) };
  }
}

/** Validation pipe errors carry a list of sentences: join them into one. */
function readableMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'object' && response !== null && 'message' in response) {
    const message = (response as { message: unknown }).message;
    if (Array.isArray(message)) return message.join('; ');
    if (typeof message === 'string') return message;
  }
  return exception.message;
}

/**
 * body-parser's errors: a 4xx status and either a `type` ("entity.too.large") or `expose`
 * (a body that claims a Content-Encoding it does not have carries no type).
 */
function isBodyParserError(error: unknown): error is { status: number; type?: unknown } {
  if (typeof error !== 'object' || error === null) return false;
  const { status, type, expose } = error as { status?: unknown; type?: unknown; expose?: unknown };
  return (
    typeof status === 'number' &&
    status >= 400 &&
    status < 500 &&
    (typeof type === 'string' || expose === true)
  );
}

function bodyParserErrorBody({ status, type }: { status: number; type?: unknown }): ErrorBody {
  switch (status) {
    case 413:
      return { statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.' };
    case 415:
      return {
        statusCode: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'Send the body as UTF-8 JSON without compression.',
      };
    default:
      return {
        statusCode: 400,
        code: 'BAD_REQUEST',
        message:
          type === 'entity.parse.failed'
            ? 'The request body is not valid JSON.'
            : 'The request body could not be read: it is not encoded as it claims.',
      };
  }
}

function describe(exception: unknown): string {
  return exception instanceof Error ? `${exception.name}: ${exception.message}` : typeof exception;
}

/**
 * What the browser is told about a CRM failure: a stable code per kind, so operators can tell an
 * outage from a refusal, and a sentence without the CRM's own words. The log line above names
 * the call, the CRM's message and the missing permission.
 */
function crmErrorBody(error: CrmError): ErrorBody {
  switch (error.failure) {
    case 'timeout':
      return {
        statusCode: 504,
        code: 'CRM_TIMEOUT',
        message: refusal(REFUSAL_HEADLINES.recordsSlow, REFUSAL_SENTENCES.tryAgainSoon),
      };
    case 'unauthorized':
      if (error.authRefusal === 'not-permitted') {
        return {
          statusCode: 502,
          code: 'CRM_KEY_NOT_PERMITTED',
          message:
            'Our records system knows the service’s key but does not let it sign in with it. The organizers need to fix this.',
        };
      }
      return {
        statusCode: 502,
        code: 'CRM_CREDENTIALS_REFUSED',
        message: 'Our records system refused the service’s credentials. The organizers need to fix this.',
      };
    case 'forbidden':
      return {
        statusCode: 502,
        code: 'CRM_PERMISSION_DENIED',
        message:
          'Our records system refused this request: the service’s account lacks a permission' +
          (error.permission ? ` (${error.permission})` : '') +
          '. The organizers need to fix this.',
      };
    case 'rejected':
      return {
        statusCode: 502,
        code: 'CRM_REJECTED',
        message:
          'Our records system could not process this request. Please try again, or tell the organizers.',
      };
    case 'unreachable':
    case 'failed':
    case 'malformed':
      return {
        statusCode: 502,
        code: 'CRM_UNAVAILABLE',
        message: refusal(REFUSAL_HEADLINES.recordsDown, REFUSAL_SENTENCES.tryAgainSoon),
      };
  }
}
