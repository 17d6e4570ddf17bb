import { loadAppConfig } from './app-config';
import { ConfigurationError, validateEnvironment } from './environment';
import { SECRET_SETTINGS } from './secret-strength';
import { SETTINGS } from './settings';

const live = { CRM_BASE_URL: 'https://crm.example.org/', CRM_API_KEY: 'key-123' };

/** Production settings an administrator generated (openssl rand): every secret check passes. */
const sound = {
  CRM_BASE_URL: 'https://crm.example.org/',
  CRM_API_KEY: 'q8XbT2vLm9RkZ4wPs7Nd',
  STAFF_REPORT_KEY: 'Hn3Vb8Kq2Lz7Wc5Xt9Rm',
  ADMIN_KEY: 'Ud6Fj1Gp4Sy8Ea3Mo0Tk',
  UPLOAD_RECEIPT_KEY: 'Zr5Nc2Qw8Jh4Lx7Bv1Dk9Pf3Gm6Ts0Ay',
  PUBLIC_BASE_URL: 'https://checkin.example.org',
};

function problemsOf(env: Record<string, string | undefined>): string[] {
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
    const production = { ...sound, NODE_ENV: 'production', PUBLIC_BASE_URL: undefined };
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
      CRM_MAX_CONNECTIONS: '4',
    });
    expect(config.stubMode).toBe(false);
    expect(config.crm).toEqual({
      baseUrl: 'https://crm.example.org',
      apiKey: 'key-123',
      siteKey: 'site',
      basicAuth: { user: 'web', password: 'secret' },
      urlStyle: 'standard',
      timeoutMs: 2500,
      maxConnections: 4,
      maxAnswerBytes: 32 * 1024 * 1024,
      fileRoute: undefined,
      customGroups: { activity: 'Check_in_data__organizing_', contact: 'Food_Co_op_Organizing' },
      timeZone: undefined,
    });
  });

  it('keeps 8 connections to the CRM unless told otherwise, and refuses none or a flood', () => {
    expect(loadAppConfig(live).crm?.maxConnections).toBe(8);
    expect(problemsOf({ ...live, CRM_MAX_CONNECTIONS: '0' })).toHaveLength(1);
    expect(problemsOf({ ...live, CRM_MAX_CONNECTIONS: '1000' })).toHaveLength(1);
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
      ...sound,
      NODE_ENV: 'production',
      CRM_BASE_URL: 'https://crm.example.org/',
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
    const production = {
      ...live,
      CRM_API_KEY: sound.CRM_API_KEY,
      NODE_ENV: 'production',
      PUBLIC_BASE_URL: 'https://checkin.example.org',
    };
    expect(problemsOf(production)).toEqual(['UPLOAD_RECEIPT_KEY is required in production']);
    expect(problemsOf({ ...production, UPLOAD_RECEIPT_KEY: 'Sh0rt-K3yz' })).toEqual([
      'UPLOAD_RECEIPT_KEY must be at least 32 characters',
    ]);
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

  describe('secrets in production', () => {
    const production = { ...sound, NODE_ENV: 'production' };

    it('takes generated keys', () => {
      expect(problemsOf(production)).toEqual([]);
    });

    it.each([
      [
        'the old .env.example placeholder',
        'ADMIN_KEY',
        '<another long random string>',
        /ADMIN_KEY is a placeholder/,
      ],
      [
        'angle brackets of a template',
        'STAFF_REPORT_KEY',
        'staff-<generated>-key-123',
        /STAFF_REPORT_KEY is a placeholder/,
      ],
      [
        'a documented example word',
        'UPLOAD_RECEIPT_KEY',
        'change-me-change-me-change-me-1234',
        /UPLOAD_RECEIPT_KEY is a placeholder/,
      ],
      [
        'a single repeated character',
        'ADMIN_KEY',
        'aaaaaaaaaaaaaaaa',
        /ADMIN_KEY uses fewer than 8 different characters/,
      ],
      [
        'a short repeated pattern',
        'STAFF_REPORT_KEY',
        'abcabcabcabcabcabc',
        /STAFF_REPORT_KEY uses fewer than 8 different characters/,
      ],
      ['a one-character CiviCRM API key', 'CRM_API_KEY', 'k', /CRM_API_KEY must be at least 16 characters/],
    ])('refuses %s, naming the setting', (_case, name, value, problem) => {
      expect(problemsOf({ ...production, [name]: value })).toEqual(
        expect.arrayContaining([expect.stringMatching(problem)]),
      );
    });

    it('refuses a key equal to another, or built from another', () => {
      expect(problemsOf({ ...production, ADMIN_KEY: sound.STAFF_REPORT_KEY })).toEqual([
        'ADMIN_KEY must differ from STAFF_REPORT_KEY: each key guards something else',
      ]);
      expect(problemsOf({ ...production, UPLOAD_RECEIPT_KEY: `${sound.ADMIN_KEY}-receipts-2026` })).toEqual([
        'UPLOAD_RECEIPT_KEY contains ADMIN_KEY: knowing one must not give the other',
      ]);
    });

    describe('STAFF_LINK_KEY, like every signing key', () => {
      const staffLinkKey = 'Wq4Rz8Tn1Yb6Hc3Jv9Kd2Mf7Lp5Sx0Ga';

      it('takes a generated key', () => {
        expect(problemsOf({ ...production, STAFF_LINK_KEY: staffLinkKey })).toEqual([]);
      });

      it.each([
        [
          'a template in angle brackets',
          '<a long random string of 32 chars>',
          /STAFF_LINK_KEY is a placeholder/,
        ],
        ['a change-me key', 'change-me-change-me-change-me-1234', /STAFF_LINK_KEY is a placeholder/],
        [
          '32 times the same character',
          'a'.repeat(32),
          /STAFF_LINK_KEY uses fewer than 8 different characters/,
        ],
      ])('refuses %s', (_case, value, problem) => {
        expect(problemsOf({ ...production, STAFF_LINK_KEY: value })).toEqual([
          expect.stringMatching(problem),
        ]);
      });

      it.each([
        ['STAFF_REPORT_KEY', `${sound.STAFF_REPORT_KEY}${sound.STAFF_REPORT_KEY}`],
        ['UPLOAD_RECEIPT_KEY', sound.UPLOAD_RECEIPT_KEY],
        ['FILE_LINK_KEY', 'Fk7Lm2Nq9Rs4Tu1Vw8Xy3Za6Bc0De5Gh'],
        ['CRM_API_KEY', 'Ck3Dm8En2Fo7Gp1Hq6Ir0Js5Kt9Lu4Mv'],
      ])('refuses a copy of %s', (other, value) => {
        const problems = problemsOf({ ...production, [other]: value, STAFF_LINK_KEY: value });
        expect(problems).toEqual([expect.stringMatching(new RegExp(`must differ from|contains`))]);
        expect(problems[0]).toContain('STAFF_LINK_KEY');
        expect(problems[0]).toContain(other);
      });
    });

    it('holds every key or password among the settings to these rules, including any added later', () => {
      expect(SECRET_SETTINGS).toEqual(
        expect.arrayContaining([
          'CRM_API_KEY',
          'CRM_SITE_KEY',
          'CRM_BASIC_AUTH_PASSWORD',
          'STAFF_REPORT_KEY',
          'ADMIN_KEY',
          'UPLOAD_RECEIPT_KEY',
          'STAFF_LINK_KEY',
          'FILE_LINK_KEY',
        ]),
      );
      const secretLooking = SETTINGS.map((setting) => setting.name).filter((name) =>
        /KEY|PASSWORD|SECRET|TOKEN/.test(name),
      );
      expect([...SECRET_SETTINGS].sort()).toEqual([...secretLooking].sort());
    });

    it('refuses none of this outside production, where tests and stub mode use readable keys', () => {
      expect(problemsOf({ ...sound, ADMIN_KEY: 'aaaaaaaaaaaaaaaa', CRM_API_KEY: 'k' })).toEqual([]);
    });
  });
});
