import type { ExecutionContext } from '@nestjs/common';
import { loadAppConfig } from '../config/app-config';
import { AppError } from '../errors/app-error';
import { AdminKeyGuard, keysMatch, StaffKeyGuard } from './secret-key.guard';

const STAFF_KEY = 'staff-key-0123456789';
const ADMIN_KEY = 'admin-key-0123456789';
const config = loadAppConfig({
  CRM_BASE_URL: 'https://crm.example.org',
  CRM_API_KEY: 'k',
  STAFF_REPORT_KEY: STAFF_KEY,
  ADMIN_KEY,
});

function contextWithHeaders(headers: Record<string, string>): ExecutionContext {
  const request = { header: (name: string) => headers[name.toLowerCase()] };
  return { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
}

function statusOf(run: () => unknown): number | 'allowed' {
  try {
    run();
    return 'allowed';
  } catch (error) {
    if (error instanceof AppError) return error.statusCode;
    throw error;
  }
}

describe('keysMatch', () => {
  it('matches only the exact key', () => {
    expect(keysMatch('abc', 'abc')).toBe(true);
    expect(keysMatch('abd', 'abc')).toBe(false);
    expect(keysMatch('abc ', 'abc')).toBe(false);
    expect(keysMatch('a much longer presented key', 'abc')).toBe(false);
  });

  it('never matches when either side is missing', () => {
    expect(keysMatch(undefined, 'abc')).toBe(false);
    expect(keysMatch('abc', undefined)).toBe(false);
    expect(keysMatch('', '')).toBe(false);
  });
});

describe('StaffKeyGuard', () => {
  const guard = new StaffKeyGuard(config);

  it('lets in a request with the staff key in X-Staff-Key', () => {
    expect(statusOf(() => guard.canActivate(contextWithHeaders({ 'x-staff-key': STAFF_KEY })))).toBe(
      'allowed',
    );
  });

  it('refuses a missing or wrong staff key with 401', () => {
    expect(statusOf(() => guard.canActivate(contextWithHeaders({})))).toBe(401);
    expect(statusOf(() => guard.canActivate(contextWithHeaders({ 'x-staff-key': ADMIN_KEY })))).toBe(401);
  });

  it('refuses everything when no staff key is configured', () => {
    const unconfigured = new StaffKeyGuard({ ...config, staffReportKey: undefined });
    expect(statusOf(() => unconfigured.canActivate(contextWithHeaders({ 'x-staff-key': STAFF_KEY })))).toBe(
      401,
    );
  });
});

describe('AdminKeyGuard', () => {
  const guard = new AdminKeyGuard(config);

  it('lets in only the admin key in X-Admin-Key', () => {
    expect(statusOf(() => guard.canActivate(contextWithHeaders({ 'x-admin-key': ADMIN_KEY })))).toBe(
      'allowed',
    );
    expect(statusOf(() => guard.canActivate(contextWithHeaders({ 'x-admin-key': STAFF_KEY })))).toBe(401);
    expect(statusOf(() => guard.canActivate(contextWithHeaders({ 'x-staff-key': ADMIN_KEY })))).toBe(401);
  });
});
