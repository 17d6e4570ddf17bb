import { type INestApplication, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import type { ErrorCode } from '@checkin/contract';
import { type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppModule } from './app.module';
import type { AppConfig } from './config/app-config';
import { GlobalExceptionFilter } from './errors/global-exception.filter';
import { AppLogger } from './logging/app-logger';
import { requestLogging } from './logging/request-logging.middleware';
import { metricsMiddleware } from './metrics/metrics.middleware';
import { MetricsService } from './metrics/metrics.service';
import { compressAnswers } from './pages/content-encoding';
import { pages } from './pages/pages';
import { securityHeaders } from './pages/page-security';
import { BodyDepthPipe } from './validation/body-depth.pipe';

/** JSON bodies are capped at 1 MB (docs/decisions.md, "Hardening"); uploads have their own 5 MB rule. */
export const JSON_BODY_LIMIT = '1mb';

/**
 * Creates the application exactly as production runs it. main.ts and the integration tests
 * both use this, so tests exercise the real pipes, guards, filters and headers.
 */
export async function createApp(
  config: AppConfig,
  logger = new AppLogger(config),
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    logger,
    abortOnError: false,
  });
  configureApp(app, config);
  return app;
}

/** Middleware order matters: the request id first, so even a refused body is logged with one. */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  const headers = securityHeaders(config);
  answerClientErrors(app.getHttpServer() as Server, headerLinesOf(headers));
  app.disable('x-powered-by');
  // API answers are no-store, so a validator is never used; Express would hash every body for one.
  // Static files keep theirs (pages/ sets a strong ETag per coding).
  app.set('etag', false);
  app.set('trust proxy', config.trustProxyHops);
  app.set('query parser', 'simple');
  app.use(requestLogging({ logRequests: config.logRequests }));
  app.use(metricsMiddleware(app.get(MetricsService)));
  // Headers before the body parser: its refusals (400, 413, 415) are answers like any other.
  app.use(headers);
  app.use('/api', noStore);
  app.useBodyParser('json', { limit: JSON_BODY_LIMIT });
  app.use(answerBodyErrors);
  app.use('/api', compressAnswers());
  // The built front end and the pages, before Nest's router; /api goes on to the router.
  app.use(pages(app, config));
  app.enableCors(config.corsOrigins.length > 0 ? { origin: config.corsOrigins } : { origin: false });
  app.useGlobalPipes(
    new BodyDepthPipe(),
    new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }),
  );
  // On SIGTERM or SIGINT (docs/operations.md): stop accepting connections, let in-flight requests
  // finish, close Redis, exit 0. Named, because Nest's default also ends the process on SIGUSR2,
  // SIGHUP and the fault signals.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
}

/**
 * The security headers as raw header lines, for the answers written straight to the socket
 * (answerClientErrors): the same middleware, run once against a response that only records.
 */
function headerLinesOf(
  middleware: (request: Request, response: Response, next: NextFunction) => void,
): string {
  const recorded = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) =>
      recorded.set(name, Array.isArray(value) ? value.join(', ') : String(value)),
    removeHeader: (name: string) => recorded.delete(name),
  };
  middleware({} as Request, recorder as unknown as Response, () => undefined);
  return [...recorded].map(([name, value]) => `${name}: ${value}\r\n`).join('');
}

/** What Node answers itself, before any route runs, in the body of docs/decisions.md, "Error bodies" instead of an empty one. */
const CLIENT_ERRORS: Record<string, [number, ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'HEADERS_TOO_LARGE', 'The address or the headers of the request are too long.'],
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'REQUEST_TIMEOUT',
    'The request took too long to arrive. Please try again.',
  ],
};
const MALFORMED_REQUEST: [number, ErrorCode, string] = [400, 'BAD_REQUEST', 'The request could not be read.'];

/**
 * A request Node's parser refuses (an address over the header limit, a malformed request line)
 * never reaches Express: Node answers it with an empty body. This answers it like every other
 * error, then closes the connection, as Node does.
 */
export function answerClientErrors(server: Server, securityHeaderLines = ''): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [statusCode, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED_REQUEST;
    const body = JSON.stringify({ statusCode, code, message });
    socket.end(
      `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode] ?? ''}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        securityHeaderLines +
        'Cache-Control: no-store\r\nConnection: close\r\n\r\n' +
        body,
    );
  });
}

const bodyErrorFilter = new GlobalExceptionFilter();

/**
 * A body refused by the parser (over 1 MB: 413, not JSON: 400) is answered here with the error
 * body. Left to travel on, it would meet the static file module's error handler, which turns
 * every error under /api into a 404.
 */
function answerBodyErrors(error: unknown, request: Request, response: Response, next: NextFunction): void {
  // Outside /api too (a JSON body posted to a page address): an error answer is never stored.
  response.setHeader('Cache-Control', 'no-store');
  bodyErrorFilter.catch(error, new ExecutionContextHost([request, response, next]));
}

/** API answers hold personal data and links' checksums: no browser or proxy may keep them. */
function noStore(_request: Request, response: Response, next: NextFunction): void {
  response.setHeader('Cache-Control', 'no-store');
  next();
}

export type { INestApplication };
