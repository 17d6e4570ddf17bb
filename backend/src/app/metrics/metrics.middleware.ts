import type { NextFunction, Request, Response } from 'express';
import type { MetricsService } from './metrics.service';

/**
 * Counts and times every answer once it is sent. The route label is the matched route's
 * pattern (`/api/staff/report`); whatever no controller answered (the built pages, static files,
 * unknown addresses) is `static` or `unmatched`, so a scan of random addresses adds no series.
 */
export function metricsMiddleware(metrics: MetricsService) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    response.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.requestAnswered(routeOf(request), request.method, response.statusCode, seconds);
    });
    next();
  };
}

function routeOf(request: Request): string {
  const pattern = (request.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern === 'string') return `${request.baseUrl}${pattern}`;
  return request.path.startsWith('/api/') || request.path === '/api' ? 'unmatched' : 'static';
}
