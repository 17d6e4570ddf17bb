import {
  type ArgumentsHost,
  BadRequestException,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { CrmError } from '../crm/crm-errors';
import { AppError, Errors } from './app-error';
import { GlobalExceptionFilter } from './global-exception.filter';

interface Answer {
  ended?: boolean;
  status?: number;
  body?: unknown;
  headers: Record<string, string>;
}

function hostFor(answer: Answer, headersSent = false): ArgumentsHost {
  const response = {
    headersSent,
    end: () => (answer.ended = true),
    setHeader: (name: string, value: string) => (answer.headers[name] = value),
    status(code: number) {
      answer.status = code;
      return this;
    },
    json: (body: unknown) => (answer.body = body),
  };
  const request = { method: 'GET', path: '/api/data' };
  return {
    switchToHttp: () => ({ getResponse: () => response, getRequest: () => request }),
  } as unknown as ArgumentsHost;
}

function answerTo(exception: unknown, headersSent = false): Answer {
  const answer: Answer = { headers: {} };
  new GlobalExceptionFilter().catch(exception, hostFor(answer, headersSent));
  return answer;
}

describe('GlobalExceptionFilter', () => {
  it('answers an AppError with its status, code and message', () => {
    expect(answerTo(Errors.checksumInvalid())).toMatchObject({
      status: 401,
      body: { statusCode: 401, code: 'CHECKSUM_INVALID', message: expect.any(String) },
    });
  });

  it('names the fields of a validation error', () => {
    const { body } = answerTo(Errors.validation('Check the highlighted fields.', ['Equity_share']));
    expect(body).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'Check the highlighted fields.',
      fields: ['Equity_share'],
    });
  });

  it('keeps the code of each credential a 401 is about', () => {
    expect(answerTo(Errors.checksumInvalid()).body).toMatchObject({ code: 'CHECKSUM_INVALID' });
    expect(answerTo(Errors.staffKeyInvalid()).body).toMatchObject({ code: 'STAFF_KEY_INVALID' });
    expect(answerTo(Errors.adminKeyInvalid()).body).toMatchObject({ code: 'ADMIN_KEY_INVALID' });
  });

  it('labels an unlabelled 401 UNAUTHORIZED, not a bad checksum', () => {
    expect(answerTo(new UnauthorizedException())).toMatchObject({
      status: 401,
      body: { statusCode: 401, code: 'UNAUTHORIZED', message: expect.any(String) },
    });
  });

  it('only ends a response whose headers were already sent, adding no header', () => {
    const answer = answerTo(Errors.rateLimited(42), true);
    expect(answer).toEqual({ ended: true, headers: {} });
  });

  it('sets Retry-After on rate limiting', () => {
    const answer = answerTo(Errors.rateLimited(42));
    expect(answer.status).toBe(429);
    expect(answer.headers['Retry-After']).toBe('42');
  });

  it('maps a CRM timeout to 504 and every other CRM failure to 502, hiding the CRM detail', () => {
    const timeout = answerTo(new CrmError('timeout', 'Contact.get', 'no answer'));
    expect(timeout.body).toMatchObject({ statusCode: 504, code: 'CRM_TIMEOUT' });
    const failed = answerTo(new CrmError('failed', 'Contact.get', 'DB Error: table civicrm_contact', 500));
    expect(failed.body).toMatchObject({ statusCode: 502, code: 'CRM_UNAVAILABLE' });
    expect(JSON.stringify(failed.body)).not.toContain('civicrm_contact');
  });

  it('tells CRM failures and refused links in the words the pages use (libs/contract refusals)', () => {
    expect(answerTo(new CrmError('timeout', 'Contact.get', 'no answer')).body).toMatchObject({
      message: 'Our records system took too long to answer. Please try again in a few minutes.',
    });
    expect(answerTo(new CrmError('unreachable', 'Contact.get', 'ECONNREFUSED')).body).toMatchObject({
      message: 'Our records system is not answering right now. Please try again in a few minutes.',
    });
    expect(answerTo(Errors.checksumInvalid()).body).toMatchObject({
      message: 'This link is not valid or has expired. Ask your organizer for a new one.',
    });
    expect(answerTo(new ThrottlerException()).body).toMatchObject({
      message: 'Too many requests. Please wait a moment and try again.',
    });
  });

  it('keeps the shape for Nest exceptions', () => {
    expect(answerTo(new NotFoundException()).body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    expect(answerTo(new BadRequestException(['contactId must be a number'])).body).toEqual({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: 'contactId must be a number',
    });
    expect(answerTo(new ThrottlerException()).body).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
  });

  it('answers body-parser errors (too large, not JSON) with their status', () => {
    expect(answerTo({ status: 413, type: 'entity.too.large' }).body).toMatchObject({
      statusCode: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect(answerTo({ status: 400, type: 'entity.parse.failed' }).body).toMatchObject({
      statusCode: 400,
      code: 'BAD_REQUEST',
    });
    expect(answerTo({ status: 415, type: 'charset.unsupported' }).body).toMatchObject({
      statusCode: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
  });

  it('answers a body that claims an encoding it does not have with 400, not 500', () => {
    // body-parser's inflate failure: a 400 with `expose` but no `type`.
    expect(answerTo({ status: 400, expose: true, message: 'incorrect header check' }).body).toMatchObject({
      statusCode: 400,
      code: 'BAD_REQUEST',
    });
  });

  it('answers anything unexpected with a plain 500 and no internals', () => {
    const answer = answerTo(new TypeError("Cannot read properties of undefined (reading 'secret')"));
    expect(answer.body).toEqual({
      statusCode: 500,
      code: 'INTERNAL_ERROR',
      message: 'Something went wrong on our side. Please try again.',
    });
  });

  it('keeps AppError a plain class that any layer can throw', () => {
    expect(new AppError(418, 'BAD_REQUEST', 'x')).toBeInstanceOf(Error);
  });
});
