import type { Route, Routes } from '@angular/router';
import { PAGES } from '@checkin/contract';

/**
 * Each page's component, by the page's name in the one page list (`PAGES`, @checkin/contract),
 * loaded lazily: one chunk per page, so chart code loads only with the report (and staff) pages.
 * app.routes.spec.ts fails when a page of the list has none here.
 */
const PAGE_COMPONENTS: Readonly<Record<string, Route['loadComponent']>> = {
  form: () => import('./form/form-page').then((m) => m.FormPage),
  report: () => import('./report/report-page').then((m) => m.ReportPage),
  staff: () => import('./staff/staff-page').then((m) => m.StaffPage),
};

/**
 * Route titles. The form and the report have none: the form page names its own state (form,
 * review, problem, receipt), the report names itself with its co-op (the router would set a route
 * title after the server's first view, over it).
 */
const PAGE_TITLES: Readonly<Record<string, string>> = { staff: 'Staff report' };

export const routes: Routes = [
  ...PAGES.map((page): Route => ({
    path: page.path.slice(1),
    ...(page.path === '/' ? { pathMatch: 'full' as const } : {}),
    ...(PAGE_TITLES[page.name] === undefined ? {} : { title: PAGE_TITLES[page.name] }),
    loadComponent: PAGE_COMPONENTS[page.name],
  })),
  {
    path: '**',
    title: 'Page not found',
    loadComponent: () => import('./core/not-found-page').then((m) => m.NotFoundPage),
  },
];
