import { HttpErrorResponse, type HttpInterceptorFn } from '@angular/common/http';
import { type ErrorBody, isErrorBody } from '@checkin/contract';
import { catchError, throwError } from 'rxjs';

/**
 * Contract: every failed API call reaches callers as an `ApiError` whose `body` has the API's
 * error shape ({statusCode, code, message}). Network failures (status 0) and answers that are
 * not the API's JSON (a proxy's HTML page, say) get a body made here, so pages only ever handle
 * one shape and never show raw HTTP details.
 */
export class ApiError extends Error {
  constructor(readonly body: ClientErrorBody) {
    super(body.message);
    this.name = 'ApiError';
  }

  get status(): number {
    return this.body.statusCode;
  }
}

export type ClientErrorBody = Omit<ErrorBody, 'code'> & {
  code: ErrorBody['code'] | 'NETWORK_ERROR' | 'UNEXPECTED_RESPONSE';
};

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (!(error instanceof HttpErrorResponse)) {
    return new ApiError({
      statusCode: 0,
      code: 'UNEXPECTED_RESPONSE',
      message: 'Something unexpected happened. Please try again.',
    });
  }
  if (isErrorBody(error.error)) return new ApiError(error.error);
  if (error.status === 0) {
    return new ApiError({
      statusCode: 0,
      code: 'NETWORK_ERROR',
      message: 'The server could not be reached. Check your connection and try again.',
    });
  }
  return new ApiError({
    statusCode: error.status,
    code: 'UNEXPECTED_RESPONSE',
    message: `The server answered with an unexpected error (${error.status}). Please try again.`,
  });
}

export const apiErrorInterceptor: HttpInterceptorFn = (request, next) =>
  next(request).pipe(catchError((error: unknown) => throwError(() => toApiError(error))));
