import { PAGE_DATA_ROUTES, PAGES, STAFF_PAGE_PATH } from '@checkin/contract';
import { spawnSync } from 'node:child_process';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FormController } from '../form/form.controller';
import { ReportController } from '../report/report.controller';
import { StaffReportController } from '../staff-report/staff-report.controller';
import { OWNER_PAGE_READS } from './page-data';
import { isRenderedPage, pageKind, pageStatus, readsData } from './page-table';

const ROOT = join(__dirname, '..', '..', '..', '..');
const OWNER_LINK = '?contactId=102&orgId=101&cid=102&cs=demo';

/** The page routes' components as the build (tools/build/precompress.mjs) finds their chunks. */
function buildEntryPoints(): Record<string, string> {
  const script = `import { pageEntryPoints } from ${JSON.stringify(join(ROOT, 'tools/build/precompress.mjs'))};
    console.log(JSON.stringify(pageEntryPoints()));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as Record<string, string>;
}

/** The GET routes a controller serves, as Nest reads them from its decorators. */
function getRoutesOf(controller: new (...args: never[]) => unknown): string[] {
  const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
  const prototype = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(prototype).flatMap((name) => {
    const handler = prototype[name];
    if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.GET)
      return [];
    const path = String(Reflect.getMetadata(PATH_METADATA, handler) ?? '');
    return [`/${[base, path].filter((part) => part !== '' && part !== '/').join('/')}`];
  });
}

/**
 * The page list (`PAGES`, libs/contract/src/lib/pages.json) is written once; each place that
 * serves a page reads it. A page added to the list and missing in one of them fails here (the
 * Angular routes: frontend/src/app/app.routes.spec.ts).
 */
describe('every page of the page list is served everywhere', () => {
  it('the page table knows each page, for its audience; any other address is no page', () => {
    for (const page of PAGES) {
      expect(pageKind(page.path)).toBe(page.audience);
      expect(pageStatus(page.path, null)).not.toBe(404);
    }
    expect(pageKind('/no-such-page')).toBe('not-found');
    expect(pageStatus('/no-such-page', null)).toBe(404);
  });

  it('each owner page is rendered with the data its data route reads; the staff page from its link', () => {
    const owners = PAGES.filter((page) => page.audience === 'owner');
    expect(Object.keys(OWNER_PAGE_READS).sort()).toEqual(owners.map((page) => page.name).sort());
    for (const page of owners) {
      expect(isRenderedPage(page.path, '')).toBe(true);
      expect(readsData(page.path, OWNER_LINK)).toBe(true);
      expect(PAGE_DATA_ROUTES.get(page.path)).toBe(page.dataRoute);
    }
    expect(isRenderedPage(STAFF_PAGE_PATH, '?orgId=101&key=k')).toBe(true);
    expect(isRenderedPage(STAFF_PAGE_PATH, '?orgId=101')).toBe(false);
  });

  it('the build finds each page’s component, and the API serves each page’s data route', () => {
    const entryPoints = buildEntryPoints();
    expect(Object.keys(entryPoints)).toEqual(PAGES.map((page) => page.path));
    for (const entryPoint of Object.values(entryPoints))
      expect(existsSync(join(ROOT, entryPoint))).toBe(true);
    const served = [FormController, ReportController, StaffReportController].flatMap(getRoutesOf);
    for (const page of PAGES) expect(served).toContain(page.dataRoute);
  });
});
