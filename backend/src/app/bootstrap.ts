import { type INestApplication, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { AppModule } from './app.module';
import { appConfig, type AppConfig } from './config/app-config';
import { AppLogger } from './logging/app-logger';

/** JSON bodies are capped at 1 MB (decision 18); uploads have their own 5 MB rule. */
export const JSON_BODY_LIMIT = '1mb';

/**
 * Creates the application exactly as production runs it. main.ts and the integration tests
 * both use this, so tests exercise the real pipes, guards, filters and headers.
 */
export async function createApp(
  config: AppConfig,
  logger = new AppLogger(config),
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bodyParser: false,
    logger,
    abortOnError: false,
  });
  configureApp(app, config);
  return app;
}

export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxyHops);
  app.set('query parser', 'simple');
  app.useBodyParser('json', { limit: JSON_BODY_LIMIT });
  app.use(helmet({ contentSecurityPolicy: { directives: contentSecurityPolicy() } }));
  app.enableCors(config.corsOrigins.length > 0 ? { origin: config.corsOrigins } : { origin: false });
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  app.enableShutdownHooks();
}

/**
 * No inline scripts (the Angular build emits none); inline styles stay allowed because Angular
 * and the chart library set style attributes at run time.
 */
export function contentSecurityPolicy(): Record<string, string[]> {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: [],
  };
}

export type { INestApplication };
export { appConfig };
