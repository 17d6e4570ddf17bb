import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';

/**
 * Nest's console logger (JSON lines in production) with one extra duty: any configured secret
 * that slips into a message is replaced before the line is written.
 */
export class AppLogger extends ConsoleLogger {
  private readonly secrets: string[];

  constructor(config: AppConfig, context = 'App') {
    super(context, {
      json: config.logFormat === 'json',
      colors: config.logFormat !== 'json' && Boolean(process.stdout.isTTY),
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
      typeof errorStack === 'string' ? this.redact(errorStack) : errorStack,
    );
  }

  private redact(message: unknown): unknown {
    if (typeof message !== 'string') return message;
    return this.secrets.reduce((text, secret) => text.split(secret).join('[redacted]'), message);
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
  ];
  return values
    .filter((value): value is string => Boolean(value && value.length >= 4))
    .sort((a, b) => b.length - a.length);
}
