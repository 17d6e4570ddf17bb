import { Transform } from 'class-transformer';
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
} from 'class-validator';

/**
 * One setting the service reads from its environment: name, validation, default and the
 * README's row (README, "Settings", is rendered from these by settings-table.ts).
 */
export interface SettingDefinition<Name extends string = string, Value = unknown> {
  readonly name: Name;
  /** Taken when the setting is absent; carries the setting's type for `Environment`. */
  readonly default?: Value;
  /** class-transformer and class-validator decorators, in the order they would be written. */
  readonly rules: readonly PropertyDecorator[];
  /** README's "Default" cell when the default is not a plain value (computed, or a note). */
  readonly documentedDefault?: string;
  readonly meaning: string;
  /** Needed to reach the CRM: all absent outside production is stub mode (docs/decisions.md, "Stub mode"). */
  readonly requiredForCrm?: boolean;
}

type SettingDoc = Pick<SettingDefinition, 'documentedDefault' | 'meaning' | 'requiredForCrm'>;

const toInt = Transform(({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : Number(value),
);
const trimmed = Transform(({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined,
);
const HTTP_URL = IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true });
const MACHINE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

function integer<const Name extends string>(
  name: Name,
  defaultValue: number,
  bounds: { min: number; max?: number },
  doc: SettingDoc,
): SettingDefinition<Name, number> {
  const max = bounds.max === undefined ? [] : [Max(bounds.max)];
  return { name, default: defaultValue, rules: [toInt, IsInt(), Min(bounds.min), ...max], ...doc };
}

/** Trimmed text; blank counts as absent. */
function text<const Name extends string>(
  name: Name,
  rules: readonly PropertyDecorator[],
  doc: SettingDoc,
): SettingDefinition<Name, string | undefined> {
  return { name, rules: [trimmed, IsOptional(), ...rules], ...doc };
}

function textWithDefault<const Name extends string>(
  name: Name,
  defaultValue: string,
  rules: readonly PropertyDecorator[],
  doc: SettingDoc,
): SettingDefinition<Name, string> {
  return { name, default: defaultValue, rules: [trimmed, IsOptional(), ...rules], ...doc };
}

function oneOf<const Name extends string, const Value extends string>(
  name: Name,
  values: readonly Value[],
  defaultValue: NoInfer<Value>,
  doc: SettingDoc,
): SettingDefinition<Name, Value> {
  return { name, default: defaultValue, rules: [trimmed, IsOptional(), IsIn([...values])], ...doc };
}

function optionalOneOf<const Name extends string, const Value extends string>(
  name: Name,
  values: readonly Value[],
  doc: SettingDoc,
): SettingDefinition<Name, Value | undefined> {
  return { name, rules: [trimmed, IsOptional(), IsIn([...values])], ...doc };
}

/** Every setting the service reads, validated once at start-up (environment.ts), in README order. */
export const SETTINGS = [
  {
    name: 'NODE_ENV',
    default: 'development' as 'development' | 'production' | 'test',
    rules: [IsIn(['development', 'production', 'test'])],
    meaning: '`production` turns on JSON logs, requires the CRM settings and `UPLOAD_RECEIPT_KEY`',
  },
  integer('PORT', 3000, { min: 0, max: 65535 }, { meaning: 'HTTP port' }),
  // Safe defaults (docs/decisions.md, "Safe defaults in production"): behind a proxy, listen only where it connects.
  text('HOST', [IsString(), MinLength(1)], {
    documentedDefault: '— (every interface)',
    meaning:
      'address to listen on, e.g. `127.0.0.1` behind a proxy on the same machine (production warns when unset behind a proxy)',
  }),
  text('PUBLIC_BASE_URL', [HTTP_URL], {
    documentedDefault: '`http://localhost:$PORT`',
    meaning: 'base of the links printed at start-up and made by `/api/preview-link`',
  }),
  text('CRM_BASE_URL', [HTTP_URL], {
    requiredForCrm: true,
    documentedDefault: '— (required in production)',
    meaning:
      'CiviCRM site address, e.g. `https://crm.example.org`; no `user:password@` (use the Basic Auth settings); `https://` in production unless the host is loopback',
  }),
  text('CRM_API_KEY', [IsString()], {
    requiredForCrm: true,
    documentedDefault: '— (required in production)',
    meaning: 'API key of the CiviCRM user the service acts as (sent as `X-Civi-Auth: Bearer`)',
  }),
  text('CRM_SITE_KEY', [IsString()], { meaning: 'CiviCRM site key, sent as `X-Civi-Key` when set' }),
  text('CRM_BASIC_AUTH_USER', [IsString()], {
    meaning: 'Basic Auth user for a webserver in front of the CRM (set with `CRM_BASIC_AUTH_PASSWORD`)',
  }),
  text('CRM_BASIC_AUTH_PASSWORD', [IsString()], {
    meaning: 'its password (set with `CRM_BASIC_AUTH_USER`)',
  }),
  oneOf('CRM_URL_STYLE', ['standard', 'wordpress', 'joomla'], 'standard', {
    meaning: '`standard` (Drupal, Standalone), `wordpress` or `joomla` API address forms',
  }),
  integer(
    'CRM_TIMEOUT_MS',
    10_000,
    { min: 100, max: 120_000 },
    {
      meaning:
        'deadline of every CRM call, headers and body (a retry included); reads are retried once on a network error, writes never',
    },
  ),
  integer(
    'CRM_MAX_CONNECTIONS',
    8,
    { min: 1, max: 256 },
    {
      meaning:
        'most CRM calls in flight at once; more wait in the service, first come first served, within their CRM_TIMEOUT_MS (docs/operations.md, "Connections to the CRM")',
    },
  ),
  integer(
    'CRM_MAX_ANSWER_BYTES',
    32 * 1024 * 1024,
    { min: 1024 },
    {
      documentedDefault: '`33554432` (32 MiB)',
      meaning: 'largest CRM answer read; a larger one is 502 `CRM_UNAVAILABLE` and its connection is dropped',
    },
  ),
  text('CRM_FILE_ROUTE', [IsString()], {
    meaning:
      'optional extension route for staff file links, with `{id}` (e.g. `/civicrm/checkin-file?id={id}`)',
  }),
  // CiviCRM munges a new group's name (`Check_in_data__organizing_` is created as
  // `Check_in_data_organizing_`): a site names the group the installer printed (docs/civicrm-setup.md).
  textWithDefault(
    'CRM_ACTIVITY_CUSTOM_GROUP',
    'Check_in_data__organizing_',
    [Matches(MACHINE_NAME, { message: 'CRM_ACTIVITY_CUSTOM_GROUP must be a CiviCRM machine name' })],
    {
      meaning:
        'machine name of the check-in custom group on this site (CiviCRM munges new names: use what `npm run crm:schema` prints)',
    },
  ),
  textWithDefault(
    'CRM_CONTACT_CUSTOM_GROUP',
    'Food_Co_op_Organizing',
    [Matches(MACHINE_NAME, { message: 'CRM_CONTACT_CUSTOM_GROUP must be a CiviCRM machine name' })],
    { meaning: 'machine name of the organization custom group on this site' },
  ),
  // Unset: asked of the repository's CiviCRM extension once (README, "Dates and time zones").
  text(
    'CRM_TIMEZONE',
    [IsTimeZone({ message: 'CRM_TIMEZONE must be an IANA time zone such as America/Chicago' })],
    {
      documentedDefault: 'asked of the extension, else `UTC`',
      meaning: 'IANA zone CiviCRM keeps local date-times in (e.g. `America/Chicago`)',
    },
  ),
  text(
    'ORGANIZER_NAME',
    [IsString(), MaxLength(100, { message: 'ORGANIZER_NAME must be at most 100 characters' })],
    {
      meaning:
        'who owners contact, named on every error page and the receipt (public, via `GET /api/organizer`; at most 100 characters)',
    },
  ),
  text('ORGANIZER_EMAIL', [IsEmail({}, { message: 'ORGANIZER_EMAIL must be an email address' })], {
    meaning: "that person's email address, shown with the name",
  }),
  text(
    'STAFF_REPORT_KEY',
    [IsString(), MinLength(16, { message: 'STAFF_REPORT_KEY must be at least 16 characters' })],
    {
      documentedDefault: '`demo` in stub mode',
      meaning: "the staff page's key (at least 16 characters)",
    },
  ),
  text('ADMIN_KEY', [IsString(), MinLength(16, { message: 'ADMIN_KEY must be at least 16 characters' })], {
    documentedDefault: '`demo` in stub mode',
    meaning: 'the admin key for `/api/preview-link` and production diagnostics (at least 16 characters)',
  }),
  integer('RATE_LIMIT_READS_PER_MINUTE', 60, { min: 1 }, { meaning: 'reads per minute per client address' }),
  integer('RATE_LIMIT_SUBMITS_PER_MINUTE', 10, { min: 1 }, { meaning: 'submissions per minute per contact' }),
  integer('RATE_LIMIT_UPLOADS_PER_MINUTE', 20, { min: 1 }, { meaning: 'uploads per minute per contact' }),
  integer(
    'RATE_LIMIT_UPLOAD_REQUESTS_PER_MINUTE',
    30,
    { min: 1 },
    {
      meaning: 'upload requests per minute per client address, counted before the body is read',
    },
  ),
  // 8 × 5 MiB stays far below 100 MiB of memory.
  integer(
    'UPLOAD_MAX_IN_FLIGHT',
    8,
    { min: 1, max: 64 },
    {
      meaning: 'uploads one instance reads at once (each up to 5 MiB); beyond it 429',
    },
  ),
  integer(
    'UPLOAD_DEADLINE_MS',
    60_000,
    { min: 1_000, max: 600_000 },
    {
      meaning: "time an upload's body has to arrive (408 after it)",
    },
  ),
  integer(
    'UPLOAD_MIN_BYTES_PER_SECOND',
    1024,
    { min: 0 },
    {
      meaning: 'slowest accepted sending rate of an upload, over any 5 s (408 below it; `0` turns it off)',
    },
  ),
  text(
    'UPLOAD_RECEIPT_KEY',
    [IsString(), MinLength(32, { message: 'UPLOAD_RECEIPT_KEY must be at least 32 characters' })],
    {
      documentedDefault: '— (required in production; random per process elsewhere)',
      meaning: 'HMAC key of file receipts (at least 32 characters); the same on every instance',
    },
  ),
  // A probe a second is 60 a minute, a flood thousands.
  integer(
    'RATE_LIMIT_READY_PROBES_PER_MINUTE',
    120,
    { min: 1 },
    {
      meaning:
        '`/api/health/ready` requests per minute per client address (not counted against the read limit)',
    },
  ),
  integer(
    'READY_PROBE_CACHE_MS',
    2_000,
    { min: 0, max: 60_000 },
    {
      meaning: 'how long one readiness probe of the CRM answers for every caller (`0`: every probe asks)',
    },
  ),
  integer(
    'RATE_LIMIT_CHECKSUM_FAILURES',
    10,
    { min: 1 },
    {
      meaning:
        'failed checksum checks per address per window before 429; the same limit counts wrong staff keys, wrong admin keys and preview-link checks, each on its own counter',
    },
  ),
  integer('RATE_LIMIT_CHECKSUM_WINDOW_MINUTES', 10, { min: 1 }, { meaning: 'that window' }),
  text('THROTTLE_REDIS_URL', [IsString()], { meaning: 'Redis URL: rate limits shared by every instance' }),
  // docs/decisions.md, "Checksums" caps it at 5 minutes.
  integer(
    'CHECKSUM_CACHE_SECONDS',
    300,
    { min: 0, max: 300 },
    {
      meaning: 'how long a valid checksum is trusted without asking the CRM again (at most 300)',
    },
  ),
  integer('SCHEMA_CACHE_SECONDS', 600, { min: 0 }, { meaning: 'how long custom field metadata is cached' }),
  // Express "trust proxy".
  integer(
    'TRUST_PROXY_HOPS',
    0,
    { min: 0 },
    {
      meaning: 'proxies in front of the service whose `X-Forwarded-For` is trusted',
    },
  ),
  text('CORS_ORIGINS', [IsString()], {
    documentedDefault: '— (closed)',
    meaning: 'comma-separated origins allowed to call the API from other sites',
  }),
  optionalOneOf('LOG_FORMAT', ['json', 'pretty'], {
    documentedDefault: '`json` in production, else `pretty`',
    meaning: 'log line format',
  }),
  text('LOG_REQUESTS', [IsBooleanString()], {
    documentedDefault: '`true` (not in tests)',
    meaning: 'one log line per request',
  }),
  oneOf('LOG_LEVEL', ['error', 'warn', 'log', 'debug', 'verbose'], 'log', {
    meaning:
      'least severe level written: `error`, `warn`, `log`, `debug` (adds a line per CRM call), `verbose`',
  }),
  text('FRONTEND_DIST', [IsString()], {
    documentedDefault: '`dist/frontend/browser`',
    meaning: 'where the built Angular app is served from',
  }),
  text(
    'STAFF_LINK_KEY',
    [IsString(), MinLength(32, { message: 'STAFF_LINK_KEY must be at least 32 characters' })],
    {
      documentedDefault: '— (staff links from CiviCRM refused)',
      meaning:
        "signs the short-lived staff report links CiviCRM's contact record opens; the extension's setting `checkin_middleware_staff_link_key` holds the same value (at least 32 characters)",
    },
  ),
  integer(
    'SELF_CHECK_INTERVAL_SECONDS',
    60,
    { min: 0, max: 3_600 },
    {
      meaning:
        'how often the deployment self-check (credentials, permissions, extension, custom groups, time zone) runs again; readiness answers from its last result (`0`: every probe runs it)',
    },
  ),
  text(
    'FILE_LINK_KEY',
    [IsString(), MinLength(32, { message: 'FILE_LINK_KEY must be at least 32 characters' })],
    {
      documentedDefault: '— (staff file links use what CiviCRM signs itself)',
      meaning:
        "HMAC key of staff file links through the extension's route (at least 32 characters); the same value as the extension's setting `checkin_middleware_file_link_key`",
    },
  ),
  text('SERVER_RENDERING', [IsBooleanString()], {
    documentedDefault: '`true`',
    meaning:
      'render the owner pages (form, report), and the staff page opened from its link, with their data in the service (docs/performance.md, "Server-rendered owner pages"); `false`: the browser renders every page',
  }),
  integer(
    'CRM_ATTACHMENT_LOOKUP_PAUSE_SECONDS',
    3600,
    { min: 0, max: 7 * 24 * 3600 },
    {
      meaning:
        'after the CRM answered the staff report’s APIv3 Attachment.get with an error, how long to go straight to File.get (0: ask every time; docs/decisions.md, "Attachment lookup")',
    },
  ),
  // Rotation with overlap (config/key-rotation.ts, docs/rotating-secrets.md): each key being
  // replaced, accepted when verifying until its instant.
  text(
    'STAFF_LINK_KEY_PREVIOUS',
    [IsString(), MinLength(32, { message: 'STAFF_LINK_KEY_PREVIOUS must be at least 32 characters' })],
    {
      meaning:
        'while rotating `STAFF_LINK_KEY`: the key it replaces, still accepted for staff links until `STAFF_LINK_KEY_PREVIOUS_UNTIL` (docs/rotating-secrets.md)',
    },
  ),
  text('STAFF_LINK_KEY_PREVIOUS_UNTIL', [IsString()], {
    meaning:
      'the instant (ISO 8601 with offset, e.g. `2026-11-30T18:00:00Z`, at most 7 days ahead) from which `STAFF_LINK_KEY_PREVIOUS` is refused',
  }),
  text(
    'UPLOAD_RECEIPT_KEY_PREVIOUS',
    [IsString(), MinLength(32, { message: 'UPLOAD_RECEIPT_KEY_PREVIOUS must be at least 32 characters' })],
    {
      meaning:
        'while rotating `UPLOAD_RECEIPT_KEY`: the key it replaces, still accepted for file receipts until `UPLOAD_RECEIPT_KEY_PREVIOUS_UNTIL` (docs/rotating-secrets.md)',
    },
  ),
  text('UPLOAD_RECEIPT_KEY_PREVIOUS_UNTIL', [IsString()], {
    meaning:
      'the instant (ISO 8601 with offset, at most 7 days ahead) from which `UPLOAD_RECEIPT_KEY_PREVIOUS` is refused',
  }),
] as const satisfies readonly SettingDefinition[];

type Setting = (typeof SETTINGS)[number];

/** The validated settings, typed from SETTINGS. */
export type Environment = {
  [Each in Setting as Each['name']]: Each extends SettingDefinition<string, infer Value> ? Value : never;
};

/** Checked by webpack.config.js for a production build (README, "Settings"). */
export const REQUIRED_CRM_SETTINGS: readonly string[] = SETTINGS.filter(
  (setting: SettingDefinition) => setting.requiredForCrm,
).map((setting) => setting.name);
