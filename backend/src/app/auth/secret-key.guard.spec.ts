import type { ExecutionContext } from '@nestjs/common';
import { loadAppConfig } from '../config/app-config';
import { AppError } from '../errors/app-error';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { RedisConnection } from '../rate-limit/redis-connection';
import { AdminKeyGuard, keysMatch, StaffKeyGuard } from './secret-key.guard';
import { mintStaffLink } from './staff-link-token';

const STAFF_KEY = 'staff-key-0123456789';
const ADMIN_KEY = 'admin-key-0123456789';
const STAFF_LINK_KEY = 'staff-link-key-0123456789abcdefghijkl';
const config = loadAppConfig({
  CRM_BASE_URL: 'https://crm.example.org',
  CRM_API_KEY: 'k',
  STAFF_REPORT_KEY: STAFF_KEY,
  ADMIN_KEY,
  STAFF_LINK_KEY,
});

function contextWithHeaders(
  headers: Record<string, string>,
  ip = '203.0.113.7',
  query: Record<string, string> = {},
): ExecutionContext {
  const request = { ip, query, header: (name: string) => headers[name.toLowerCase()] };
  return { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
}

function limits(): RateLimitService {
  return new RateLimitService(new RedisConnection(config), config);
}

async function statusOf(run: () => Promise<unknown>): Promise<number | 'allowed'> {
  try {
    await run();
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
  const guard = new StaffKeyGuard(config, limits());

  it('lets in a request with the staff key in X-Staff-Key', async () => {
    expect(await statusOf(() => guard.canActivate(contextWithHeaders({ 'x-staff-key': STAFF_KEY })))).toBe(
      'allowed',
    );
  });

  it('refuses a missing or wrong staff key with 401', async () => {
    expect(await statusOf(() => guard.canActivate(contextWithHeaders({})))).toBe(401);
    expect(await statusOf(() => guard.canActivate(contextWithHeaders({ 'x-staff-key': ADMIN_KEY })))).toBe(
      401,
    );
  });

  it('refuses everything when no staff key is configured', async () => {
    const unconfigured = new StaffKeyGuard({ ...config, staffReportKey: undefined }, limits());
    expect(
      await statusOf(() => unconfigured.canActivate(contextWithHeaders({ 'x-staff-key': STAFF_KEY }))),
    ).toBe(401);
  });
});

describe('AdminKeyGuard', () => {
  const guard = new AdminKeyGuard(config, limits());

  it('lets in only the admin key in X-Admin-Key', async () => {
    expect(await statusOf(() => guard.canActivate(contextWithHeaders({ 'x-admin-key': ADMIN_KEY })))).toBe(
      'allowed',
    );
    expect(await statusOf(() => guard.canActivate(contextWithHeaders({ 'x-admin-key': STAFF_KEY })))).toBe(
      401,
    );
    expect(await statusOf(() => guard.canActivate(contextWithHeaders({ 'x-staff-key': ADMIN_KEY })))).toBe(
      401,
    );
  });

  it('counts wrong keys per address, concurrent ones included, and then refuses even the right one', async () => {
    const limited = new AdminKeyGuard(config, limits());
    const attempts = await Promise.all(
      Array.from({ length: 50 }, () =>
        statusOf(() => limited.canActivate(contextWithHeaders({ 'x-admin-key': 'wrong-key-0123456789' }))),
      ),
    );
    expect(attempts.filter((status) => status === 401)).toHaveLength(config.rateLimits.checksumFailures);
    expect(attempts.filter((status) => status === 429)).toHaveLength(50 - config.rateLimits.checksumFailures);
    expect(await statusOf(() => limited.canActivate(contextWithHeaders({ 'x-admin-key': ADMIN_KEY })))).toBe(
      429,
    );
    // Another address is not affected, and right keys never use up the allowance.
    const other = contextWithHeaders({ 'x-admin-key': ADMIN_KEY }, '198.51.100.9');
    for (let i = 0; i < 30; i += 1) expect(await statusOf(() => limited.canActivate(other))).toBe('allowed');
  });
});

describe('StaffKeyGuard with a staff link token from CiviCRM', () => {
  const guard = new StaffKeyGuard(config, limits());
  const inTenMinutes = () => Math.floor(Date.now() / 1000) + 600;
  const link = (orgId: number, expiresAt = inTenMinutes(), key = STAFF_LINK_KEY) =>
    mintStaffLink({ staffContactId: 5, orgId, expiresAt }, key);
  const ask = (token: string, orgId: string) =>
    statusOf(() => guard.canActivate(contextWithHeaders({ 'x-staff-key': token }, '203.0.113.8', { orgId })));

  it('lets in the organization the token names', async () => {
    expect(await ask(link(41), '41')).toBe('allowed');
  });

  it('refuses it for any other organization', async () => {
    expect(await ask(link(41), '42')).toBe(401);
    expect(await ask(link(41), '')).toBe(401);
  });

  it('refuses an expired token, one living longer than an hour, a wrong key and a tampered token', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await ask(link(41, now - 1), '41')).toBe(401);
    expect(await ask(link(41, now + 2 * 3600), '41')).toBe(401);
    expect(await ask(link(41, inTenMinutes(), 'another-key-0123456789abcdefghijklmnop'), '41')).toBe(401);
    const token = link(41);
    expect(await ask(token.replace('.41.', '.42.'), '42')).toBe(401);
    const middle = token.length - 10;
    const flipped = token[middle] === 'A' ? 'B' : 'A';
    expect(await ask(`${token.slice(0, middle)}${flipped}${token.slice(middle + 1)}`, '41')).toBe(401);
  });

  it('refuses another spelling of the same signature (the last character with its spare bits changed)', async () => {
    const token = link(41);
    expect(await ask(withSpareBitsChanged(token), '41')).toBe(401);
  });

  it('refuses every token when STAFF_LINK_KEY is not set, and the staff key keeps working', async () => {
    const unconfigured = new StaffKeyGuard({ ...config, staffLinkKey: undefined }, limits());
    const context = (key: string) =>
      contextWithHeaders({ 'x-staff-key': key }, '203.0.113.9', { orgId: '41' });
    expect(await statusOf(() => unconfigured.canActivate(context(link(41))))).toBe(401);
    expect(await statusOf(() => unconfigured.canActivate(context(STAFF_KEY)))).toBe('allowed');
  });

  it('is not accepted by the admin guard', async () => {
    const admin = new AdminKeyGuard(config, limits());
    expect(
      await statusOf(() =>
        admin.canActivate(contextWithHeaders({ 'x-admin-key': link(41) }, '203.0.113.10', { orgId: '41' })),
      ),
    ).toBe(401);
  });
});

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * A 32-byte signature is 43 base64url characters: 258 bits for 256, so the last character's two
 * lowest bits are spare and flipping one decodes to the same bytes.
 */
function withSpareBitsChanged(token: string): string {
  const last = BASE64URL.indexOf(token.slice(-1));
  return `${token.slice(0, -1)}${BASE64URL[last ^ 1]}`;
}
