import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../config/app-config';
import { isRenderedPage } from './page-table';
import { CSP_NONCE_LOCAL, inlineScriptSources } from './static-site';

/** Browser features no page of the service uses. */
const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

/**
 * The security headers of every answer (API, files, pages, refusals); a page the service renders
 * gets a content security policy with this response's nonce (docs/decisions.md, "Hardening").
 */
export function securityHeaders(config: AppConfig) {
  const options = {
    frameguard: { action: 'deny' },
    // Owner links carry their checksum in the address: it must never leave in a Referer.
    referrerPolicy: { policy: 'no-referrer' },
  } as const;
  const directives = contentSecurityPolicy(config, inlineScriptSources(config.frontendDist));
  const helmetHeaders = helmet({ ...options, contentSecurityPolicy: { useDefaults: false, directives } });
  const serverRenderedPageHeaders = helmet({
    ...options,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { ...directives, scriptSrc: [...(directives['scriptSrc'] ?? []), pageScriptNonce] },
    },
  });
  return (request: Request, response: Response, next: NextFunction): void => {
    response.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
    if (isServerRenderedPage(request)) {
      response.locals[CSP_NONCE_LOCAL] = randomBytes(18).toString('base64url');
      serverRenderedPageHeaders(request, response, next);
    } else helmetHeaders(request, response, next);
  };
}

/**
 * The pages rendered on the server carry two inline scripts Angular needs (the early event
 * capture for replay, and the page's data as JSON): each has this response's nonce, and the
 * policy allows exactly that nonce, never 'unsafe-inline' (docs/performance.md, "Server-rendered owner pages").
 */
function isServerRenderedPage(request: Request): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const queryStart = request.url.indexOf('?');
  if (queryStart === -1) return isRenderedPage(request.url, '');
  return isRenderedPage(request.url.slice(0, queryStart), request.url.slice(queryStart));
}

function pageScriptNonce(_request: unknown, response: unknown): string {
  return `'nonce-${String((response as Response).locals[CSP_NONCE_LOCAL])}'`;
}

/**
 * No inline script but the built page's own, each allowed by its hash (`inlineScriptSources`:
 * the staff page's early data request; the Angular build emits none itself, and critical CSS
 * inlining, which adds an inline event handler, is off); inline styles stay allowed because
 * Angular inserts component styles and the chart library sets style attributes at run time.
 * Requests are upgraded to HTTPS only when the service is published over HTTPS, so a plain-HTTP
 * demo still loads its own files.
 */
export function contentSecurityPolicy(
  config: Pick<AppConfig, 'publicBaseUrl'>,
  inlineScripts: readonly string[] = [],
): Record<string, string[]> {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...inlineScripts],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    ...(config.publicBaseUrl.startsWith('https:') ? { upgradeInsecureRequests: [] } : {}),
  };
}
