import pageList from './pages.json';

/**
 * The service's pages, written once (docs/architecture.md, "Where to change…"): `pages.json`, a
 * JSON file so that the build script (tools/build/precompress.mjs) reads the very same list.
 * The back end's page table, its rendered pages' data reads, the Angular routes and the build's
 * page chunks all follow it; `pages.spec.ts` beside each of them fails when one misses a page.
 */
export type PageAudience = 'owner' | 'staff';

export interface PageDefinition {
  /** The page's folder in frontend/src/app, whose `<name>-page.ts` is the page's component. */
  name: string;
  /** The page's address. */
  path: string;
  /** Owner pages open with an owner link; the staff page with a staff link. */
  audience: PageAudience;
  /** The API route of the page's first data, which the page's own request and the service's render read. */
  dataRoute: string;
}

export const PAGES: readonly PageDefinition[] = pageList as PageDefinition[];

/** The page at `pathname`, or undefined when no page is there. */
export function pageAt(pathname: string): PageDefinition | undefined {
  return PAGES.find((page) => page.path === pathname);
}

/** The page named `name`; a name that is no page's is a programming error. */
export function pageNamed(name: string): PageDefinition {
  const page = PAGES.find((candidate) => candidate.name === name);
  if (page === undefined) throw new Error(`no page is named ${name} (libs/contract/src/lib/pages.json)`);
  return page;
}
