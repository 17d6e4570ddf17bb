import { PAGES } from './pages';
import type { OrganizerContact, OwnerLinkParams } from './payloads';

/**
 * The data request each owner page makes first (the owner pages of `PAGES`, pages.json). The service names it in a `Link: rel=preload`
 * header on the page's HTML and the browser app requests it with `fetch`: a preloaded response is
 * only reused when both ask for the very same URL, so both build it here.
 */
export const PAGE_DATA_ROUTES: ReadonlyMap<string, string> = new Map(
  PAGES.filter((page) => page.audience === 'owner').map((page) => [page.path, page.dataRoute]),
);

/**
 * The owner link read from a page's query string: null when cid or cs is missing (pages then
 * explain instead of calling the API). Values are trimmed; empty optional ones are left out.
 */
export function ownerLinkFromQuery(query: URLSearchParams): OwnerLinkParams | null {
  const cid = query.get('cid')?.trim();
  const cs = query.get('cs')?.trim();
  if (!cid || !cs) return null;
  const link: OwnerLinkParams = { cid, cs };
  const contactId = query.get('contactId')?.trim();
  const orgId = query.get('orgId')?.trim();
  if (contactId) link.contactId = contactId;
  if (orgId) link.orgId = orgId;
  return link;
}

/** `apiPath?contactId=&orgId=&cid=&cs=` in this order, each value percent-encoded. */
export function ownerDataUrl(apiPath: string, link: OwnerLinkParams): string {
  const parts: string[] = [];
  if (link.contactId) parts.push(`contactId=${encodeURIComponent(link.contactId)}`);
  if (link.orgId) parts.push(`orgId=${encodeURIComponent(link.orgId)}`);
  parts.push(`cid=${encodeURIComponent(link.cid)}`, `cs=${encodeURIComponent(link.cs)}`);
  return `${apiPath}?${parts.join('&')}`;
}

/** The data URL a page at `pathname` with `search` loads first, or null when it has none to preload. */
export function pageDataUrl(pathname: string, search: string): string | null {
  const apiPath = PAGE_DATA_ROUTES.get(pathname);
  if (apiPath === undefined) return null;
  const link = ownerLinkFromQuery(new URLSearchParams(search));
  return link ? ownerDataUrl(apiPath, link) : null;
}

/** The staff report's address for an organization, as the staff page requests it (its key goes in a header). */
export function staffReportUrl(orgId: string): string {
  return `/api/staff/report?orgId=${encodeURIComponent(orgId)}`;
}

/**
 * The first data of a page rendered on the server (docs/performance.md, "Server-rendered owner
 * pages"): the answer the page's data URL gave, as the browser would have received it, handed to
 * the render and then to the browser inside the page, so the browser never asks for it again.
 */
export interface PageDataAnswer {
  /** The page's data URL (`pageDataUrl`), which its API service asks for. */
  url: string;
  /** The HTTP status the API would have answered with: 200, or an error's. */
  status: number;
  /** The JSON body: the payload, or the error body `{statusCode, code, message}`. */
  body: unknown;
  /**
   * Further answers the page shows as it arrives, each handed once by its URL: the co-ops to
   * choose from (`organizationChoicesUrl`) when the link names none of a person's several.
   */
  also?: PageDataAnswer[];
  /** The `Retry-After` the API would have sent with an error (a CRM outage, a limit), in seconds. */
  retryAfterSeconds?: number;
}

/** `GET /api/organizations` for this link, built alike by the page and by the service that hands it over. */
export function organizationChoicesUrl(link: OwnerLinkParams): string {
  return ownerDataUrl('/api/organizations', link);
}

/**
 * The id of the inert `<template>` in which the service puts a rendered page's code preloads, and
 * from which the page's entry moves them into its head once the page has loaded
 * (docs/performance.md, "The app starts when the owner acts").
 */
export const LATER_CODE_ELEMENT_ID = 'checkin-later-code';

/**
 * What every page the service renders carries besides its data, so the page holds all the app
 * would show on its first paint (docs/performance.md, "Server-rendered owner pages"): whom an
 * owner contacts (`GET /api/organizer`), and the CRM site's zone, in which every date and time on
 * the owner pages is shown (docs/decisions.md, "Dates on owner pages").
 */
export interface PageContext {
  organizer: OrganizerContact;
  /** An IANA zone; null when the service could not learn it (the reader's zone is used then). */
  timeZone: string | null;
}
