import {
  type PageDataAnswer,
  pageAt,
  pageDataUrl,
  STAFF_PAGE_PATH,
  staffLinkFromQuery,
} from '@checkin/contract';

/**
 * The service's pages (docs/architecture.md, "Pages"): which addresses are pages, which the
 * service renders with their data, which read the CRM, and the status each answers. The pages
 * themselves, their addresses and data routes, are the one list `PAGES` (@checkin/contract,
 * pages.json), which the front end's routes and the build read too. Every other address that is
 * not a built file is the app's "Page not found".
 */
export type PageKind = 'owner' | 'staff' | 'not-found';

export function pageKind(pathname: string): PageKind {
  return pageAt(pathname)?.audience ?? 'not-found';
}

/**
 * The pages rendered in this process, with their data, when the front end's server build is
 * there (docs/performance.md, "Server-rendered owner pages"): the owner pages (the form, the
 * report), and the staff page on the load that carries its key in the address, its first from
 * the staff link. Later loads of the staff page find the key in the tab's session storage, which
 * the server never sees: they are rendered in the browser (docs/performance.md, "The staff page
 * rendered from its link").
 */
export function isRenderedPage(pathname: string, search: string): boolean {
  return pageKind(pathname) === 'owner' || isStaffPageFromLink(pathname, search);
}

/** The staff page on the load whose address carries its key: the staff link itself. */
function isStaffPageFromLink(pathname: string, search: string): boolean {
  return pathname === STAFF_PAGE_PATH && staffLinkFromQuery(new URLSearchParams(search)) !== null;
}

/**
 * Whether a rendered page reads the CRM: an owner page opened with its link, or the staff page
 * opened from its link. Without a link a page is its own error view and reads nothing.
 */
export function readsData(pathname: string, search: string): boolean {
  return pageDataUrl(pathname, search) !== null || isStaffPageFromLink(pathname, search);
}

/**
 * The status a page answers, as its data route would (docs/decisions.md, "Page statuses"): the
 * data's own status (401 bad link, 403 another person's co-op, 502/503/504 the CRM's trouble);
 * an owner page without its link 401, as its data route answers a request without one; an
 * address that is no page 404. A link that names none of a person's several co-ops answers 200:
 * the page is the list of their co-ops to choose from, not an error.
 */
export function pageStatus(pathname: string, pageData: PageDataAnswer | null): number {
  const kind = pageKind(pathname);
  if (kind === 'not-found') return 404;
  if (pageData !== null) return offersChoices(pageData) ? 200 : pageData.status;
  return kind === 'owner' ? 401 : 200;
}

/** The data said "which co-op?" and the page holds the person's co-ops to choose from. */
function offersChoices(pageData: PageDataAnswer): boolean {
  const code = (pageData.body as { code?: unknown } | null)?.code;
  return code === 'ORG_REQUIRED' && (pageData.also ?? []).some((answer) => answer.status === 200);
}
