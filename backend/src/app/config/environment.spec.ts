import { loadAppConfig } from './app-config';
import { ConfigurationError, validateEnvironment } from './environment';

const live = { CRM_BASE_URL: 'https://crm.example.org/', CRM_API_KEY: 'key-123' };

function problemsOf(env: Record<string, string>): string[] {
  try {
    validateEnvironment(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigurationError) return error.problems;
    throw error;
  }
}

describe('configuration', () => {
  it('runs in stub mode when no CRM setting is present outside production', () => {
    const config = loadAppConfig({});
    expect(config.stubMode).toBe(true);
    expect(config.crm).toBeNull();
    expect(config.port).toBe(3000);
  });

  it('names every missing CRM setting in production', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('CRM_BASE_URL'),
        expect.stringContaining('CRM_API_KEY'),
      ]),
    );
  });

  it('requires the public address in production, naming the setting and an example', () => {
    const production = { ...live, NODE_ENV: 'production', UPLOAD_RECEIPT_KEY: 'r'.repeat(32) };
    expect(problemsOf(production)).toEqual([
      "PUBLIC_BASE_URL is required in production: set it to the service's public address, e.g. https://checkin.example.org",
    ]);
    expect(problemsOf({ ...production, PUBLIC_BASE_URL: 'https://checkin.example.org' })).toEqual([]);
    expect(problemsOf(live)).toEqual([]);
  });

  it('refuses a half-configured CRM outside production', () => {
    expect(problemsOf({ CRM_BASE_URL: 'https://crm.example.org' })).toEqual(['CRM_API_KEY is required']);
  });

  it('builds the CRM connection from the settings', () => {
    const config = loadAppConfig({
      ...live,
      CRM_SITE_KEY: 'site',
      CRM_BASIC_AUTH_USER: 'web',
      CRM_BASIC_AUTH_PASSWORD: 'secret',
      CRM_TIMEOUT_MS: '2500',
    });
    expect(config.stubMode).toBe(false);
    expect(config.crm).toEqual({
      baseUrl: 'https://crm.example.org',
      apiKey: 'key-123',
      siteKey: 'site',
      basicAuth: { user: 'web', password: 'secret' },
      urlStyle: 'standard',
      timeoutMs: 2500,
      maxAnswerBytes: 32 * 1024 * 1024,
      fileRoute: undefined,
      customGroups: { activity: 'Check_in_data__organizing_', contact: 'Food_Co_op_Organizing' },
      timeZone: undefined,
    });
  });

  it('takes the custom group names CiviCRM gave this site, and the CRM time zone', () => {
    const config = loadAppConfig({
      ...live,
      CRM_ACTIVITY_CUSTOM_GROUP: 'Check_in_data_organizing_',
      CRM_TIMEZONE: 'America/Chicago',
    });
    expect(config.crm?.customGroups.activity).toBe('Check_in_data_organizing_');
    expect(config.crm?.timeZone).toBe('America/Chicago');
  });

  it('refuses a group name CiviCRM could not hold and a time zone that does not exist', () => {
    expect(problemsOf({ ...live, CRM_ACTIVITY_CUSTOM_GROUP: 'Check-in data' })).toEqual([
      'CRM_ACTIVITY_CUSTOM_GROUP must be a CiviCRM machine name',
    ]);
    expect(problemsOf({ ...live, CRM_TIMEZONE: 'Mars/Olympus' })).toEqual([
      'CRM_TIMEZONE must be an IANA time zone such as America/Chicago',
    ]);
  });

  it('takes the organizer contact shown to owners, and refuses an email that is not one', () => {
    const config = loadAppConfig({ ORGANIZER_NAME: ' Sam Rivera ', ORGANIZER_EMAIL: 'sam@example.org' });
    expect(config.organizer).toEqual({ name: 'Sam Rivera', email: 'sam@example.org' });
    expect(loadAppConfig({}).organizer).toEqual({ name: null, email: null });
    expect(problemsOf({ ORGANIZER_EMAIL: 'sam at example' })).toEqual([
      'ORGANIZER_EMAIL must be an email address',
    ]);
  });

  it('requires the Basic Auth user and password together', () => {
    expect(problemsOf({ ...live, CRM_BASIC_AUTH_USER: 'web' })).toEqual([
      'CRM_BASIC_AUTH_USER and CRM_BASIC_AUTH_PASSWORD must be set together',
    ]);
  });

  it('rejects malformed values with a sentence naming the setting', () => {
    const problems = problemsOf({
      ...live,
      PORT: 'eighty',
      CRM_BASE_URL: 'not a url',
      CHECKSUM_CACHE_SECONDS: '900',
    });
    expect(problems.join('\n')).toMatch(/PORT/);
    expect(problems.join('\n')).toMatch(/CRM_BASE_URL/);
    expect(problems.join('\n')).toMatch(/CHECKSUM_CACHE_SECONDS/);
  });

  it('defaults the staff and admin keys to demo only in stub mode', () => {
    expect(loadAppConfig({}).staffReportKey).toBe('demo');
    expect(loadAppConfig(live).staffReportKey).toBeUndefined();
    expect(loadAppConfig({ ...live, STAFF_REPORT_KEY: 'a-long-staff-key-123' }).staffReportKey).toBe(
      'a-long-staff-key-123',
    );
  });

  it('uses the docs/decisions.md, "Limits" rate limits by default', () => {
    expect(loadAppConfig({}).rateLimits).toEqual({
      readsPerMinute: 60,
      submitsPerMinute: 10,
      uploadsPerMinute: 20,
      uploadRequestsPerMinute: 30,
      readyProbesPerMinute: 120,
      checksumFailures: 10,
      checksumWindowMs: 600_000,
      redisUrl: undefined,
    });
  });

  it('refuses a user name or password in CRM_BASE_URL, in every mode', () => {
    const withUserInfo = { ...live, CRM_BASE_URL: 'https://civi:hunter2@crm.example.org' };
    expect(problemsOf(withUserInfo)).toEqual([
      expect.stringMatching(/CRM_BASE_URL must not contain a user name/),
    ]);
  });

  it('refuses plain HTTP to a CRM on another host in production, but not to one on this host', () => {
    const production = {
      ...live,
      NODE_ENV: 'production',
      UPLOAD_RECEIPT_KEY: 'r'.repeat(32),
      PUBLIC_BASE_URL: 'https://checkin.example.org',
    };
    expect(problemsOf({ ...production, CRM_BASE_URL: 'http://crm.example.org' })).toEqual([
      expect.stringMatching(/CRM_BASE_URL must use https/),
    ]);
    expect(problemsOf({ ...production, CRM_BASE_URL: 'http://127.0.0.1:8080' })).toEqual([]);
    expect(problemsOf({ ...production, CRM_BASE_URL: 'http://localhost:8080' })).toEqual([]);
    expect(problemsOf({ ...production, CRM_BASE_URL: 'http://[::1]:8080' })).toEqual([]);
    expect(problemsOf({ ...live, CRM_BASE_URL: 'http://crm.example.org' })).toEqual([]);
  });

  it('requires a receipt key of at least 32 characters in production, and makes one per process elsewhere', () => {
    const publicAddress = { PUBLIC_BASE_URL: 'https://checkin.example.org' };
    expect(problemsOf({ ...live, ...publicAddress, NODE_ENV: 'production' })).toEqual([
      'UPLOAD_RECEIPT_KEY is required in production',
    ]);
    expect(
      problemsOf({ ...live, ...publicAddress, NODE_ENV: 'production', UPLOAD_RECEIPT_KEY: 'short' }),
    ).toEqual(['UPLOAD_RECEIPT_KEY must be at least 32 characters']);
    const first = loadAppConfig(live).uploads.receiptKey;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadAppConfig(live).uploads.receiptKey).not.toBe(first);
  });

  it('bounds uploads by default: 8 in flight, 60 s each, at least 1 KiB/s', () => {
    expect(loadAppConfig({}).uploads).toMatchObject({
      maxInFlight: 8,
      deadlineMs: 60_000,
      minBytesPerSecond: 1024,
    });
  });
});
