import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBooleanString,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsTimeZone,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';
import requiredCrmSettings from './required-crm-settings.json';

const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : Number(value);
const trimmed = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * Every setting the service reads, validated once at start-up. README, "Settings", documents
 * each one; keep the two in step.
 */
export class EnvironmentVariables {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @Transform(trimmed)
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  CRM_BASE_URL?: string;

  @Transform(trimmed)
  @IsOptional()
  @IsString()
  CRM_API_KEY?: string;

  @Transform(trimmed)
  @IsOptional()
  @IsString()
  CRM_SITE_KEY?: string;

  @Transform(trimmed)
  @IsOptional()
  @IsString()
  CRM_BASIC_AUTH_USER?: string;

  @Transform(trimmed)
  @IsOptional()
  @IsString()
  CRM_BASIC_AUTH_PASSWORD?: string;

  /** How the CMS in front of CiviCRM spells API paths. */
  @Transform(trimmed)
  @IsOptional()
  @IsIn(['standard', 'wordpress', 'joomla'])
  CRM_URL_STYLE: 'standard' | 'wordpress' | 'joomla' = 'standard';

  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120_000)
  CRM_TIMEOUT_MS = 10_000;

  /**
   * The two custom groups' machine names as this CRM stores them. CiviCRM munges a new group's
   * name (`Check_in_data__organizing_` is created as `Check_in_data_organizing_`), so a site set
   * up with `npm run crm:schema` names the group the installer printed (docs/civicrm-setup.md).
   */
  @Transform(trimmed)
  @IsOptional()
  @Matches(/^[A-Za-z][A-Za-z0-9_]*$/, { message: 'CRM_ACTIVITY_CUSTOM_GROUP must be a CiviCRM machine name' })
  CRM_ACTIVITY_CUSTOM_GROUP = 'Check_in_data__organizing_';

  @Transform(trimmed)
  @IsOptional()
  @Matches(/^[A-Za-z][A-Za-z0-9_]*$/, { message: 'CRM_CONTACT_CUSTOM_GROUP must be a CiviCRM machine name' })
  CRM_CONTACT_CUSTOM_GROUP = 'Food_Co_op_Organizing';

  /**
   * The IANA time zone CiviCRM reads and writes local date-times in. Unset: asked of the
   * repository's CiviCRM extension once, else UTC (README, "Dates and time zones").
   */
  @Transform(trimmed)
  @IsOptional()
  @IsTimeZone({ message: 'CRM_TIMEZONE must be an IANA time zone such as America/Chicago' })
  CRM_TIMEZONE?: string;

  /** Largest CRM answer read; a bigger one is dropped unread (32 MiB). */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  CRM_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

  /** How long one readiness probe of the CRM answers for every caller; 0 probes every time. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  READY_PROBE_CACHE_MS = 2_000;

  /** Optional extension route for staff file links, with `{id}` for the file id. */
  @Transform(trimmed)
  @IsOptional()
  @IsString()
  CRM_FILE_ROUTE?: string;

  /** Who owners contact when something goes wrong, named on every error page and the receipt. */
  @Transform(trimmed)
  @IsOptional()
  @IsString()
  @MaxLength(100, { message: 'ORGANIZER_NAME must be at most 100 characters' })
  ORGANIZER_NAME?: string;

  @Transform(trimmed)
  @IsOptional()
  @IsEmail({}, { message: 'ORGANIZER_EMAIL must be an email address' })
  ORGANIZER_EMAIL?: string;

  @Transform(trimmed)
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'STAFF_REPORT_KEY must be at least 16 characters' })
  STAFF_REPORT_KEY?: string;

  @Transform(trimmed)
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'ADMIN_KEY must be at least 16 characters' })
  ADMIN_KEY?: string;

  @Transform(trimmed)
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  PUBLIC_BASE_URL?: string;

  /** HMAC key of file receipts; required in production, random per process elsewhere. */
  @Transform(trimmed)
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'UPLOAD_RECEIPT_KEY must be at least 32 characters' })
  UPLOAD_RECEIPT_KEY?: string;

  /** Uploads read at once by one instance; beyond it 429. 8 × 5 MiB stays far below 100 MiB. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  UPLOAD_MAX_IN_FLIGHT = 8;

  /** Total time an upload request may take to arrive. */
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(600_000)
  UPLOAD_DEADLINE_MS = 60_000;

  /** Slowest sustained sending rate accepted for an upload body. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  UPLOAD_MIN_BYTES_PER_SECOND = 1024;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_READS_PER_MINUTE = 60;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_SUBMITS_PER_MINUTE = 10;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_UPLOADS_PER_MINUTE = 20;

  /** Readiness probes per client address: a probe a second is 60, a flood thousands. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_READY_PROBES_PER_MINUTE = 120;

  /** Upload requests per client address, counted before the body is read. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_UPLOAD_REQUESTS_PER_MINUTE = 30;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_CHECKSUM_FAILURES = 10;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_CHECKSUM_WINDOW_MINUTES = 10;

  @Transform(trimmed)
  @IsOptional()
  @IsString()
  THROTTLE_REDIS_URL?: string;

  /** docs/decisions.md, "Checksums" caps it at 5 minutes. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(300)
  CHECKSUM_CACHE_SECONDS = 300;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  SCHEMA_CACHE_SECONDS = 600;

  /** Express "trust proxy": hops of proxies whose X-Forwarded-For is believed. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  TRUST_PROXY_HOPS = 0;

  @Transform(trimmed)
  @IsOptional()
  @IsString()
  CORS_ORIGINS?: string;

  @Transform(trimmed)
  @IsOptional()
  @IsIn(['json', 'pretty'])
  LOG_FORMAT?: 'json' | 'pretty';

  @Transform(trimmed)
  @IsOptional()
  @IsBooleanString()
  LOG_REQUESTS?: string;

  /** The least severe level written: `debug` adds one line per CRM call. */
  @Transform(trimmed)
  @IsOptional()
  @IsIn(['error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL: 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';

  @Transform(trimmed)
  @IsOptional()
  @IsString()
  FRONTEND_DIST?: string;
}

export class ConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigurationError';
  }
}

export const REQUIRED_CRM_SETTINGS: readonly string[] = requiredCrmSettings;

export function validateEnvironment(raw: Record<string, string | undefined>): EnvironmentVariables {
  const env = plainToInstance(EnvironmentVariables, raw, { exposeDefaultValues: true });
  const problems = validateSync(env, { skipMissingProperties: false, whitelist: false }).flatMap((error) =>
    Object.values(error.constraints ?? {}),
  );
  problems.push(...crmSettingProblems(env));
  if (problems.length > 0) throw new ConfigurationError(problems);
  return env;
}

/**
 * Production needs every required CRM setting. Elsewhere all of them absent means stub mode,
 * and some of them absent is a mistake worth stopping for.
 */
function crmSettingProblems(env: EnvironmentVariables): string[] {
  const values = env as unknown as Record<string, string | undefined>;
  const missing = REQUIRED_CRM_SETTINGS.filter((name) => !values[name]);
  const problems: string[] = [];
  const partlySet = missing.length > 0 && missing.length < REQUIRED_CRM_SETTINGS.length;
  if (missing.length > 0 && (env.NODE_ENV === 'production' || partlySet)) {
    problems.push(
      ...missing.map((name) => `${name} is required${env.NODE_ENV === 'production' ? ' in production' : ''}`),
    );
  }
  if (Boolean(env.CRM_BASIC_AUTH_USER) !== Boolean(env.CRM_BASIC_AUTH_PASSWORD)) {
    problems.push('CRM_BASIC_AUTH_USER and CRM_BASIC_AUTH_PASSWORD must be set together');
  }
  if (env.NODE_ENV === 'production' && !env.UPLOAD_RECEIPT_KEY) {
    problems.push('UPLOAD_RECEIPT_KEY is required in production');
  }
  problems.push(...crmUrlProblems(env.CRM_BASE_URL, env.NODE_ENV === 'production'));
  return problems;
}

/**
 * A user name or password in CRM_BASE_URL would travel to staff browsers with the file links
 * (Basic Auth has its own settings); plain HTTP in production would send the API key in clear,
 * except to a CRM on the same host.
 */
export function crmUrlProblems(baseUrl: string | undefined, production: boolean): string[] {
  if (!baseUrl) return [];
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return [];
  }
  const problems: string[] = [];
  if (url.username || url.password) {
    problems.push(
      'CRM_BASE_URL must not contain a user name or password: use CRM_BASIC_AUTH_USER and CRM_BASIC_AUTH_PASSWORD',
    );
  }
  if (production && url.protocol === 'http:' && !isLoopback(url.hostname)) {
    problems.push('CRM_BASE_URL must use https:// in production (http:// only for a CRM on this host)');
  }
  return problems;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
