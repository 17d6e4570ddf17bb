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
  status?: number;
  body?: unknown;
  headers: Record<string, string>;
  ended?: boolean;
}

function hostFor(answer: Answer, headersSent = false): ArgumentsHost {
  const response = {
    headersSent,
    setHeader: (name: string, value: string) => {
      if (headersSent) throw new Error('Cannot set headers after they are sent to the client');
      answer.headers[name] = value;
    },
    end: () => (answer.ended = true),
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

  describe('a 401', () => {
    it('keeps the staff key guard’s code', () => {
      expect(answerTo(Errors.staffKeyInvalid()).body).toMatchObject({
        statusCode: 401,
        code: 'STAFF_KEY_INVALID',
      });
    });

    it('keeps the admin key guard’s code', () => {
      expect(answerTo(Errors.adminKeyInvalid()).body).toMatchObject({
        statusCode: 401,
        code: 'ADMIN_KEY_INVALID',
      });
    });

    it('keeps the checksum code where the checksum was refused', () => {
      expect(answerTo(Errors.checksumInvalid()).body).toMatchObject({
        statusCode: 401,
        code: 'CHECKSUM_INVALID',
      });
    });

    it('keeps a code its thrower put in a Nest exception', () => {
      const labelled = new UnauthorizedException({ code: 'STAFF_KEY_INVALID', message: 'No staff key.' });
      expect(answerTo(labelled).body).toEqual({
        statusCode: 401,
        code: 'STAFF_KEY_INVALID',
        message: 'No staff key.',
      });
    });

    it('gives Nest’s own unlabelled UnauthorizedException the generic code, not CHECKSUM_INVALID', () => {
      expect(answerTo(new UnauthorizedException()).body).toMatchObject({
        statusCode: 401,
        code: 'UNAUTHORIZED',
      });
    });

    it('ignores a label that is not one of the contract’s codes', () => {
      const mislabelled = new UnauthorizedException({ code: 'NO_SUCH_CODE', message: 'x' });
      expect(answerTo(mislabelled).body).toMatchObject({ code: 'UNAUTHORIZED' });
    });
  });

  it('only ends a response whose headers were already sent, without touching its headers', () => {
    const answer = answerTo(Errors.rateLimited(42), true);
    expect(answer).toEqual({ headers: {}, ended: true });
  });
});
