import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { currentRequestId } from './request-context';

/** A JSON log line: Nest's fields, plus the request id when one is being handled. */
interface JsonLogLine {
  level: LogLevel;
  pid: number;
  timestamp: number;
  message: unknown;
  context?: string;
  stack?: unknown;
  requestId?: string;
}

/**
 * Nest's console logger (JSON lines in production) with two extra duties: a line written while
 * a request is handled carries its request id, and any configured secret that slips into a
 * message is replaced before the line is written.
 */
export class AppLogger extends ConsoleLogger {
  private readonly secrets: string[];

  constructor(config: AppConfig, context = 'App') {
    super(context, {
      json: config.logFormat === 'json',
      colors: config.logFormat !== 'json' && Boolean(process.stdout.isTTY),
      logLevels: config.logLevels,
    });
    this.secrets = secretValues(config);
  }

  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
  ): void {
    super.printMessages(
      messages.map((message) => this.redact(message)),
      context,
      logLevel,
      writeStreamType,
      typeof errorStack === 'string' ? this.redactText(errorStack) : errorStack,
    );
  }

  protected override getJsonLogObject(
    message: unknown,
    options: {
      context: string;
      logLevel: LogLevel;
      writeStreamType?: 'stdout' | 'stderr';
      errorStack?: unknown;
    },
  ): JsonLogLine {
    const logObject = super.getJsonLogObject(message, options);
    const requestId = currentRequestId();
    return requestId ? { ...logObject, requestId } : logObject;
  }

  private redact(message: unknown): unknown {
    if (typeof message === 'string') return this.redactText(message);
    if (isPlainObject(message)) return JSON.parse(this.redactText(JSON.stringify(message))) as unknown;
    return message;
  }

  private redactText(text: string): string {
    return this.secrets.reduce((result, secret) => result.split(secret).join('[redacted]'), text);
  }
}

/** Every configured secret value, longest first so overlapping secrets redact fully. */
export function secretValues(config: AppConfig): string[] {
  const values = [
    config.crm?.apiKey,
    config.crm?.siteKey,
    config.crm?.basicAuth?.password,
    config.crm?.basicAuth
      ? Buffer.from(`${config.crm.basicAuth.user}:${config.crm.basicAuth.password}`).toString('base64')
      : undefined,
    config.stubMode ? undefined : config.staffReportKey,
    config.stubMode ? undefined : config.adminKey,
    config.staffLinkKey,
    config.uploads.receiptKey,
    config.staffLinkPreviousKey?.key,
    config.uploads.receiptPreviousKey?.key,
    redisPassword(config.rateLimits.redisUrl),
  ];
  return values
    .filter((value): value is string => Boolean(value && value.length >= 4))
    .sort((a, b) => b.length - a.length);
}

function redisPassword(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
