import { type ArgumentsHost, Catch, ServiceUnavailableException } from '@nestjs/common';
import type { HealthReport } from '@checkin/contract';
import type { Response } from 'express';
import { GlobalExceptionFilter } from '../errors/global-exception.filter';

/**
 * A failed health check answers 503 with the body Terminus built (status, info, error,
 * details), which load balancers and operators read; the global filter would replace it with
 * the generic error body. Anything else goes on to the global filter.
 */
@Catch()
export class HealthCheckFailureFilter extends GlobalExceptionFilter {
  override catch(exception: unknown, host: ArgumentsHost): void {
    const report = exception instanceof ServiceUnavailableException ? exception.getResponse() : undefined;
    if (!isHealthReport(report)) return super.catch(exception, host);
    const response = host.switchToHttp().getResponse<Response>();
    response.setHeader('Cache-Control', 'no-cache, no-store, must-revalidate');
    response.status(503).json(report);
  }
}

function isHealthReport(value: unknown): value is HealthReport {
  if (typeof value !== 'object' || value === null) return false;
  const report = value as Partial<HealthReport>;
  return (
    (report.status === 'error' || report.status === 'shutting_down') &&
    typeof report.details === 'object' &&
    report.details !== null
  );
}
