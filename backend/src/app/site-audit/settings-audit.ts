import type { AppConfig } from '../config/app-config';
import type { SiteFinding } from './finding';
import { listensOnAllInterfaces, publicUrlNotHttps } from './findings';

/** Host names that stay on this machine. */
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The safe defaults of a production deployment (docs/civicrm-setup.md, "In front of the service"): owner
 * links over https, and a service behind a proxy listening only where the proxy connects.
 */
export function auditSettings(config: AppConfig): SiteFinding[] {
  if (!config.production) return [];
  const findings: SiteFinding[] = [];
  const url = safeUrl(config.publicBaseUrl);
  if (url && url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
    findings.push(publicUrlNotHttps(config.publicBaseUrl));
  }
  if (!config.host && (config.trustProxyHops ?? 0) > 0) findings.push(listensOnAllInterfaces(config.port));
  return findings;
}

function safeUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
