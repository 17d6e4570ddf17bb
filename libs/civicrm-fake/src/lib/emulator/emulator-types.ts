import { type CiviCrmModel, type ApiUser, type CiviCrmModelOptions, type CiviCrmVersion } from '../../index';

/** What the emulator is told (options, faults) and tells (recorded calls), and its wire-level shapes. */

export const DEFAULT_EMULATOR_API_KEY = 'emulator-api-key';

/** The back-office login the emulator accepts unless told otherwise (as the test CiviCRM's). */
export const DEFAULT_EMULATOR_LOGIN = { username: 'admin', password: 'admin123pass' } as const;

/** The header the service marks base64 File.create content with (the extension decodes it). */
export const CONTENT_ENCODING_HEADER = 'x-checkin-content-encoding';

/** Standalone's session cookie. */
export const SESSION_COOKIE = 'SESSCIVISO';

/** A back-office user who can log in (Standalone's User.login). */
export interface EmulatorLogin {
  username: string;
  password: string;
  /** Default: every permission (the admin role). */
  permissions?: readonly string[];
  contactId?: number;
}

export interface CiviCrmEmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  apiKey?: string;
  /** When set, `X-Civi-Key` must carry it. */
  siteKey?: string;
  /** When set, a webserver in front demands this Basic Auth before CiviCRM sees anything. */
  basicAuth?: { user: string; password: string };
  /**
   * Further API keys and their users' permissions (the `apiKey` above is an administrator);
   * e.g. a minimal API user to test permission refusals.
   */
  apiUsers?: Record<string, { permissions: readonly string[]; contactId?: number }>;
  /** Who may log in at User.login (default: DEFAULT_EMULATOR_LOGIN, an administrator). */
  logins?: readonly EmulatorLogin[];
  /** For the default model: the release to imitate (default '6.14'). */
  civicrmVersion?: CiviCrmVersion;
  /** For the default model: whether the repository's extension is installed (default true). */
  extensionInstalled?: boolean;
  /** For the default model: the CRM's time zone, IANA (default 'UTC'). */
  timeZone?: string;
  /** For the default model: domain settings (`defaultCurrency`, `lcMessages`...), CiviCRM's defaults otherwise. */
  settings?: Readonly<Record<string, string>>;
  /** Defaults to `createModel` called with the options above. */
  model?: CiviCrmModel;
  /**
   * Builds the default model. The seed is the caller's: the back end passes its demo data,
   * which follows its field configuration (docs/emulator.md). Defaults to a stock CiviCRM.
   */
  createModel?: (options: Omit<CiviCrmModelOptions, 'seed'>) => CiviCrmModel;
  latencyMs?: number;
  /** Keep only the newest this many recorded calls (default: every call), for long runs. */
  recordLimit?: number;
}

export interface RecordedCall {
  version: 3 | 4;
  method: string;
  path: string;
  entity: string;
  action: string;
  /** The call's parameters as CiviCRM would read them ({} when absent or unreadable). */
  params: Record<string, unknown>;
  /** Request headers, names lowercased. */
  headers: Record<string, string>;
  /** HTTP status answered; 0 while pending or when the socket was destroyed. */
  status: number;
  /** Arrival time, epoch milliseconds. */
  at: number;
  /** Key of the call within a batch request. */
  batchKey?: string;
  /** Bytes of the body of the HTTP answer the call travelled in (a batch's calls share one). */
  answerBytes?: number;
}

export type EmulatorFaultKind = 'down' | 'slow' | 'http500' | 'http401' | 'malformed' | 'v3error';

export interface EmulatorFault {
  kind: EmulatorFaultKind;
  /** Only calls to this entity (any call of a batch counts). */
  entity?: string;
  action?: string;
  /** For 'slow': how long the answer takes (default 30 s). */
  delayMs?: number;
  /** How many requests it affects; unlimited when absent. */
  times?: number;
}

export type Route =
  | { kind: 'api4'; entity: string; action: string }
  | { kind: 'batch' }
  | { kind: 'v3' }
  | { kind: 'file' }
  | { kind: 'checkInFile'; id: string | null }
  | { kind: 'page' };

/** Who a request acts as, after authx and the session. */
export type Identity =
  | { kind: 'key'; user: ApiUser }
  | { kind: 'session'; user: ApiUser }
  | { kind: 'anonymous'; user: ApiUser }
  | { kind: 'refused'; reply: Reply };

export interface Reply {
  status: number;
  body: string | Buffer;
  headers: Record<string, string>;
}

export interface PendingSleep {
  timer: NodeJS.Timeout;
  resolve: () => void;
}

export type Form = Map<string, string>;

export const DEFAULT_SLOW_MS = 30_000;
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
export const API4_PREFIX = '/civicrm/ajax/api4';
/** v3 form fields that are not API parameters. */
export const V3_RESERVED = new Set(['entity', 'action', 'json', 'q', 'key', 'api_key', 'version']);
