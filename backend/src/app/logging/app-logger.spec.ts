import { loadAppConfig } from '../config/app-config';
import { AppLogger, secretValues } from './app-logger';
import { runWithRequestId } from './request-context';

const API_KEY = 'live-api-key-0123456789';
const REDIS_PASSWORD = 'redis-pass-9876';

const config = loadAppConfig({
  NODE_ENV: 'production',
  PUBLIC_BASE_URL: 'https://checkin.example.org',
  CRM_BASE_URL: 'https://crm.example.org',
  CRM_API_KEY: API_KEY,
  ADMIN_KEY: 'admin-key-0123456789abcdef',
  UPLOAD_RECEIPT_KEY: 'receipt-key-0123456789abcdef0123456789',
  THROTTLE_REDIS_URL: `redis://:${REDIS_PASSWORD}@redis.internal:6379`,
  LOG_FORMAT: 'json',
});

/** Captures what the logger writes to stdout and stderr. */
function capture(write: () => void): string {
  const lines: string[] = [];
  const stdout = jest
    .spyOn(process.stdout, 'write')
    .mockImplementation((chunk) => lines.push(String(chunk)) > 0);
  const stderr = jest
    .spyOn(process.stderr, 'write')
    .mockImplementation((chunk) => lines.push(String(chunk)) > 0);
  try {
    write();
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
  return lines.join('');
}

describe('AppLogger', () => {
  it('adds the request id to lines written while a request is handled', () => {
    const logger = new AppLogger(config, 'Test');
    const line = capture(() => runWithRequestId('req-42', () => logger.log('inside')));
    expect(JSON.parse(line)).toMatchObject({
      level: 'log',
      context: 'Test',
      message: 'inside',
      requestId: 'req-42',
    });
  });

  it('writes no request id outside a request', () => {
    const logger = new AppLogger(config, 'Test');
    expect(JSON.parse(capture(() => logger.log('outside')))).not.toHaveProperty('requestId');
  });

  it('redacts secrets in text and in structured messages', () => {
    const logger = new AppLogger(config, 'Test');
    const output = capture(() => {
      logger.warn(`calling with ${API_KEY}`);
      logger.log({
        detail: `Bearer ${API_KEY}`,
        nested: { url: `redis://:${REDIS_PASSWORD}@redis.internal` },
      });
    });
    expect(output).not.toContain(API_KEY);
    expect(output).not.toContain(REDIS_PASSWORD);
    expect(output.match(/\[redacted\]/g)).toHaveLength(3);
  });

  it("counts the Redis URL's password among the secrets", () => {
    expect(secretValues(config)).toEqual(expect.arrayContaining([API_KEY, REDIS_PASSWORD]));
  });

  it('counts the file receipt key among the secrets', () => {
    expect(secretValues(config)).toContain('receipt-key-0123456789abcdef0123456789');
  });
});
