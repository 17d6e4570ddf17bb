import type { FileValue } from '@checkin/contract';

/** What the staff report tells the page about where CRM files live. */
export interface FileLinkContext {
  /** CRM_BASE_URL; relative addresses resolve against it. */
  crmBaseUrl: string | null;
  /** Optional extension route with `{id}` for the file id. */
  fileRouteTemplate: string | null;
}

const SCHEME = /^[a-z][a-z\d+.-]*:/i;

/**
 * The address a staff file link opens (docs/product-rules.md, "Staff report", rules 7 and 8), first that works of:
 * 1. the value's signed `url` from the CRM, absolute as it is, relative resolved against CRM_BASE_URL;
 * 2. the extension route, when configured, with the id in place of `{id}`;
 * 3. the bare CRM file address `{CRM_BASE_URL}/civicrm/file?reset=1&id=<id>`.
 * Relative addresses resolve as URLs do against CRM_BASE_URL taken as a folder: `civicrm/x`
 * lands under it, `/civicrm/x` at its host's root. Only http and https addresses are links;
 * null when no candidate gives one (the page then shows the name without a link).
 */
export function fileHref(file: FileValue, context: FileLinkContext): string | null {
  const base = context.crmBaseUrl;
  const route = context.fileRouteTemplate?.split('{id}').join(encodeURIComponent(String(file.id)));
  return (
    resolveLink(file.url, base) ??
    resolveLink(route, base) ??
    resolveLink(`civicrm/file?reset=1&id=${encodeURIComponent(String(file.id))}`, base)
  );
}

function resolveLink(candidate: string | undefined, base: string | null): string | null {
  if (!candidate) return null;
  if (SCHEME.test(candidate)) return isWebAddress(candidate) ? candidate : null;
  if (!base) return null;
  try {
    const resolved = new URL(candidate, base.endsWith('/') ? base : `${base}/`).href;
    return isWebAddress(resolved) ? resolved : null;
  } catch {
    return null;
  }
}

function isWebAddress(address: string): boolean {
  return /^https?:\/\//i.test(address);
}
