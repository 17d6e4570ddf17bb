import { PAGE_DATA_ROUTES } from './preload';
import { PAGES, pageAt, pageNamed } from './pages';
import { STAFF_PAGE_PATH } from './staff';

describe('the page list', () => {
  it('names each page once, at an address of its own, for owners or staff, with a data route of the API', () => {
    expect(new Set(PAGES.map((page) => page.name)).size).toBe(PAGES.length);
    expect(new Set(PAGES.map((page) => page.path)).size).toBe(PAGES.length);
    for (const page of PAGES) {
      expect(page.name).toMatch(/^[a-z][a-z-]*$/);
      expect(page.path).toMatch(/^\/[a-z-]*$/);
      expect(['owner', 'staff']).toContain(page.audience);
      expect(page.dataRoute).toMatch(/^\/api\/[a-z/-]+$/);
    }
    expect(PAGES.filter((page) => page.audience === 'staff')).toHaveLength(1);
  });

  it('is where the data routes and the staff address come from', () => {
    expect([...PAGE_DATA_ROUTES]).toEqual(
      PAGES.filter((page) => page.audience === 'owner').map((page) => [page.path, page.dataRoute]),
    );
    expect(pageAt(STAFF_PAGE_PATH)?.audience).toBe('staff');
  });

  it('finds a page by its address or its name', () => {
    expect(pageAt('/report')?.name).toBe('report');
    expect(pageAt('/reports')).toBeUndefined();
    expect(pageNamed('form').path).toBe('/');
    expect(() => pageNamed('nothing')).toThrow(/no page is named nothing/);
  });
});
