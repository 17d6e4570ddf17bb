import type { Routes } from '@angular/router';

/** One lazy chunk per page, so chart code loads only with the report (and staff) pages. */
export const routes: Routes = [
  {
    path: '',
    pathMatch: 'full',
    // No route title: the form page names its own state (form, review, problem, receipt).
    loadComponent: () => import('./form/form-page').then((m) => m.FormPage),
  },
  {
    path: 'report',
    // No route title: the report names itself with its co-op (the router would set a route title
    // after the server's first view, over it).
    loadComponent: () => import('./report/report-page').then((m) => m.ReportPage),
  },
  {
    path: 'staff',
    title: 'Staff report',
    loadComponent: () => import('./staff/staff-page').then((m) => m.StaffPage),
  },
  {
    path: '**',
    title: 'Page not found',
    loadComponent: () => import('./core/not-found-page').then((m) => m.NotFoundPage),
  },
];
