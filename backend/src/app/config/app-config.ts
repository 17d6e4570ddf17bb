import type { InjectionToken, LogLevel } from '@nestjs/common';
import { getConfigToken } from '@nestjs/config';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { validateEnvironment } from './environment';
import { previousKey } from './key-rotation';

/** The CRM's connection settings, or null in stub mode. */
export interface CrmConnection {
  baseUrl: string;
  apiKey: string;
  siteKey?: string;
  basicAuth?: { user: string; password: string };
  urlStyle: 'standard' | 'wordpress' | 'joomla';
  timeoutMs: number;
  /** CRM calls in flight at once (CRM_MAX_CONNECTIONS; 8 when absent); the rest queue in order. */
  maxConnections?: number;
  /** Largest answer body read from the CRM (CRM_MAX_ANSWER_BYTES; 32 MiB when absent). */
  maxAnswerBytes?: number;
  fileRoute?: string;
  /** FILE_LINK_KEY: when set, staff file links are the extension's route, signed by the service. */
  fileLinkKey?: string;
  /** Custom group machine names on this site, keyed by the names the code uses (see crm-names.ts). */
  customGroups: CustomGroupNames;
  /** CRM_TIMEZONE, or undefined to discover it. */
  timeZone?: string;
}

export interface CustomGroupNames {
  activity: string;
  contact: string;
}

/** Stub-mode keys: the demo link works with `demo`, like the demo checksum (docs/decisions.md, "Stub mode"). */
export const STUB_STAFF_KEY = 'demo';

/**
 * Builds the one typed configuration object from an environment: main.ts calls it once with
 * process.env, tests with the settings they want. Its type is inferred from this function
 * (AppConfig below), never written twice.
 */
export function loadAppConfig(raw: Record<string, string | undefined> = process.env) {
  const env = validateEnvironment(raw);
  const crm: CrmConnection | null =
    env.CRM_BASE_URL && env.CRM_API_KEY
      ? {
          baseUrl: env.CRM_BASE_URL.replace(/\/+$/, ''),
          apiKey: env.CRM_API_KEY,
          siteKey: env.CRM_SITE_KEY,
          basicAuth:
            env.CRM_BASIC_AUTH_USER && env.CRM_BASIC_AUTH_PASSWORD
              ? { user: env.CRM_BASIC_AUTH_USER, password: env.CRM_BASIC_AUTH_PASSWORD }
              : undefined,
          urlStyle: env.CRM_URL_STYLE,
          timeoutMs: env.CRM_TIMEOUT_MS,
          maxConnections: env.CRM_MAX_CONNECTIONS,
          maxAnswerBytes: env.CRM_MAX_ANSWER_BYTES,
          fileRoute: env.CRM_FILE_ROUTE,
          fileLinkKey: env.FILE_LINK_KEY,
          customGroups: { activity: env.CRM_ACTIVITY_CUSTOM_GROUP, contact: env.CRM_CONTACT_CUSTOM_GROUP },
          timeZone: env.CRM_TIMEZONE,
        }
      : null;
  const stubMode = crm === null;
  return {
    environment: env.NODE_ENV,
    production: env.NODE_ENV === 'production',
    port: env.PORT,
    /** Where to listen; undefined: every interface. */
    host: env.HOST,
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    stubMode,
    crm,
    /** Outside production with no CRM, the staff and admin keys default to `demo`. */
    staffReportKey: env.STAFF_REPORT_KEY ?? (stubMode ? STUB_STAFF_KEY : undefined),
    adminKey: env.ADMIN_KEY ?? (stubMode ? STUB_STAFF_KEY : undefined),
    /** Shared with the CiviCRM extension; staff link tokens are refused without it (docs/organizer-guide.md). */
    staffLinkKey: env.STAFF_LINK_KEY,
    /** STAFF_LINK_KEY_PREVIOUS while rotating (config/key-rotation.ts). */
    staffLinkPreviousKey: previousKey(env.STAFF_LINK_KEY_PREVIOUS, env.STAFF_LINK_KEY_PREVIOUS_UNTIL),
    uploads: {
      /** Production sets it; elsewhere a random key per process (receipts do not outlive it). */
      receiptKey: env.UPLOAD_RECEIPT_KEY ?? randomBytes(32).toString('base64url'),
      /** UPLOAD_RECEIPT_KEY_PREVIOUS while rotating (config/key-rotation.ts). */
      receiptPreviousKey: previousKey(env.UPLOAD_RECEIPT_KEY_PREVIOUS, env.UPLOAD_RECEIPT_KEY_PREVIOUS_UNTIL),
      maxInFlight: env.UPLOAD_MAX_IN_FLIGHT,
      deadlineMs: env.UPLOAD_DEADLINE_MS,
      minBytesPerSecond: env.UPLOAD_MIN_BYTES_PER_SECOND,
    },
    readyProbeCacheMs: env.READY_PROBE_CACHE_MS,
    selfCheckIntervalMs: env.SELF_CHECK_INTERVAL_SECONDS * 1000,
    /** Public: shown to owners on error pages and the receipt (GET /api/organizer). */
    organizer: { name: env.ORGANIZER_NAME || null, email: env.ORGANIZER_EMAIL || null },
    checksumCacheMs: env.CHECKSUM_CACHE_SECONDS * 1000,
    schemaCacheMs: env.SCHEMA_CACHE_SECONDS * 1000,
    attachmentLookupPauseMs: env.CRM_ATTACHMENT_LOOKUP_PAUSE_SECONDS * 1000,
    rateLimits: {
      readsPerMinute: env.RATE_LIMIT_READS_PER_MINUTE,
      submitsPerMinute: env.RATE_LIMIT_SUBMITS_PER_MINUTE,
      uploadsPerMinute: env.RATE_LIMIT_UPLOADS_PER_MINUTE,
      uploadRequestsPerMinute: env.RATE_LIMIT_UPLOAD_REQUESTS_PER_MINUTE,
      readyProbesPerMinute: env.RATE_LIMIT_READY_PROBES_PER_MINUTE,
      checksumFailures: env.RATE_LIMIT_CHECKSUM_FAILURES,
      checksumWindowMs: env.RATE_LIMIT_CHECKSUM_WINDOW_MINUTES * 60_000,
      redisUrl: env.THROTTLE_REDIS_URL,
    },
    trustProxyHops: env.TRUST_PROXY_HOPS,
    corsOrigins:
      env.CORS_ORIGINS?.split(',')
        .map((origin) => origin.trim())
        .filter(Boolean) ?? [],
    logFormat: env.LOG_FORMAT ?? (env.NODE_ENV === 'production' ? 'json' : 'pretty'),
    logRequests: env.LOG_REQUESTS ? env.LOG_REQUESTS === 'true' : env.NODE_ENV !== 'test',
    logLevels: logLevelsFrom(env.LOG_LEVEL),
    frontendDist: resolve(env.FRONTEND_DIST ?? 'dist/frontend/browser'),
    serverRendering: env.SERVER_RENDERING !== 'false',
  };
}

export type AppConfig = ReturnType<typeof loadAppConfig>;

const LOG_LEVELS_BY_SEVERITY: readonly LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** Every level at least as severe as the given one. */
function logLevelsFrom(least: Exclude<LogLevel, 'fatal'>): LogLevel[] {
  return LOG_LEVELS_BY_SEVERITY.slice(0, LOG_LEVELS_BY_SEVERITY.indexOf(least) + 1);
}

/** The @nestjs/config namespace that holds the configuration (AppConfigModule). */
export const APP_CONFIG_NAMESPACE = 'app';

/** `@Inject(APP_CONFIG) config: AppConfig` anywhere in the back end (see AppModule.forRoot). */
export const APP_CONFIG: InjectionToken<AppConfig> = getConfigToken(APP_CONFIG_NAMESPACE);
