import type { CiviCrmModel } from './civicrm-model';

/** The model's vocabulary: errors, versions, API users, options, and how records and entities are stored. */

/** One record as the API answers it. */
export type CrmRow = Record<string, unknown>;

export type Api4ErrorStatus = 400 | 401 | 403 | 404 | 405 | 500;

/** What CiviCRM answers with an HTTP error status; the emulator sends `status` and `message`. */
export class Api4Error extends Error {
  constructor(
    readonly status: Api4ErrorStatus,
    message: string,
    readonly errorCode = 0,
  ) {
    super(message);
    this.name = 'Api4Error';
  }
}

/**
 * Where CiviCRM dies instead of answering an API error (a PHP fatal error): HTTP 500 with the
 * release's error page (6.14: an HTML page with the message; 5.81: an empty body).
 */
export class CrmFatalError extends Api4Error {
  constructor(message: string) {
    super(500, message);
    this.name = 'CrmFatalError';
  }
}

export type CrmDataType =
  | 'Int'
  | 'Float'
  | 'Money'
  | 'String'
  | 'Memo'
  | 'Boolean'
  | 'Date'
  | 'Timestamp'
  | 'File'
  | 'ContactReference';

export type V3Row = Record<string, string>;

export type V3Envelope =
  | { is_error: 0; version: 3; count: number; values: V3Row[] | Record<string, V3Row>; id?: number }
  | { is_error: 1; error_message: string };

/** The two CiviCRM releases the model imitates (the shared README lists how they differ). */
export type CiviCrmVersion = '6.14' | '5.81';

/** What `CheckinMiddleware.info` reports as civicrm_version for each imitated release. */
export const CIVICRM_RELEASES: Readonly<Record<CiviCrmVersion, string>> = {
  '6.14': '6.14.alpha1',
  '5.81': '5.81.1',
};

/** The version the imitated CiviCRM extension reports (CheckinMiddleware.info). */
export const CHECKIN_EXTENSION_VERSION = '1.2.0';

/** The permissions `CheckinMiddleware.info` reports for the calling user (civicrm-extension/, Info.php). */
export const CHECKIN_INFO_PERMISSIONS: readonly string[] = [
  'authenticate with api key',
  'access CiviCRM',
  'edit all contacts',
  'view all contacts',
  'access all custom data',
  'view all activities',
  'delete activities',
  'access uploaded files',
  'administer CiviCRM',
  'all CiviCRM permissions and ACLs',
];

/**
 * The permission Standalone's admin role holds: every permission, every ACL. API users and
 * logged-in users without it get only what their list names.
 */
export const ALL_PERMISSIONS = 'all CiviCRM permissions and ACLs';

/** Who makes a call: an API key's contact or a logged-in user, or nobody (anonymous). */
export interface ApiUser {
  /** The acting contact (created_id of new files); null when anonymous or unknown. */
  contactId: number | null;
  permissions: readonly string[];
}

export const ADMIN_USER: ApiUser = { contactId: null, permissions: [ALL_PERMISSIONS] };
export const ANONYMOUS_USER: ApiUser = { contactId: null, permissions: [] };

/** Circumstances of one call that are not its params. */
export interface CallContext {
  /** Defaults to an administrator (ADMIN_USER). */
  user?: ApiUser;
  /**
   * The service's marker (request header X-Checkin-Content-Encoding): with the extension
   * installed, `File.create` content marked `base64` is decoded before it is stored.
   */
  contentEncoding?: string;
}

export interface CiviCrmModelOptions {
  /** Which release to imitate (default '6.14'). */
  civicrmVersion?: CiviCrmVersion;
  /** Whether the repository's CiviCRM extension is installed (default true). */
  extensionInstalled?: boolean;
  /** The CRM's local time zone, IANA (default 'UTC'): dates on the wire are local times there. */
  timeZone?: string;
  /** Base of signed file URLs (`<baseUrl>/civicrm/file?...`); the emulator sets its own. */
  baseUrl?: string;
  /** Secret behind generated checksums and file signatures; random when absent. */
  secret?: string;
  /** The clock, for checksum expiry and default dates. */
  now?: () => Date;
  /** Domain settings set by the site's administrator, e.g. `{ defaultCurrency: 'CAD', lcMessages: 'en_CA' }`. */
  settings?: Readonly<Record<string, string>>;
  /** Fills the fresh model (custom fields, contacts...); `reset()` returns to its result. */
  seed?: (model: CiviCrmModel) => void;
}

/** A stored file, as tests and the emulator's file route see it. */
export interface StoredFile {
  id: number;
  /** The name CiviCRM shows (the uri without its unique part); null without a uri. */
  file_name: string | null;
  /** The name on disk; null when nothing was written (5.81's File.create). */
  uri: string | null;
  mime_type: string | null;
  upload_date: string | null;
  size: number;
  content: Buffer;
}

export const ENTITY_NAMES = [
  'Contact',
  'Email',
  'Activity',
  'Relationship',
  'RelationshipType',
  'RelationshipCache',
  'CustomGroup',
  'CustomField',
  'OptionGroup',
  'OptionValue',
  'File',
  'CheckinMiddleware',
] as const;
export type EntityName = (typeof ENTITY_NAMES)[number];
export type TableName = Exclude<EntityName, 'RelationshipCache' | 'CheckinMiddleware'>;
export const TABLE_NAMES = ENTITY_NAMES.filter(
  (name): name is TableName => name !== 'RelationshipCache' && name !== 'CheckinMiddleware',
);

/** Write actions, for the emulator's recording. */
export const WRITE_ACTIONS: ReadonlySet<string> = new Set(['create', 'update', 'delete', 'save', 'replace']);

export const API4_OPERATORS = [
  '=',
  '!=',
  '<>',
  '>',
  '>=',
  '<',
  '<=',
  'IN',
  'NOT IN',
  'LIKE',
  'NOT LIKE',
  'CONTAINS',
  'NOT CONTAINS',
  'IS EMPTY',
  'IS NOT EMPTY',
  'IS NULL',
  'IS NOT NULL',
  'BETWEEN',
] as const;
export type Operator = (typeof API4_OPERATORS)[number];

/** CiviCRM's default checksum lifetime (setting checksum_timeout): 7 days. */
export const DEFAULT_CHECKSUM_TTL_HOURS = 168;

export interface StoredRecord {
  id: number;
  /** Core columns (and File content as bytes, which no select can reach). */
  fields: Record<string, unknown>;
  /** Custom values keyed by CustomField id. */
  custom: Record<string, unknown>;
  /** In a get with `join`: the record each alias joined to this row (null: none, LEFT join). */
  joined?: Record<string, StoredRecord | null>;
}

/** One `join` entry of a get, compiled. */
export interface JoinSpec {
  alias: string;
  def: EntityDef;
  kind: 'LEFT' | 'INNER' | 'EXCLUDE';
  /** Records of the joined entity a base row may pair with (before the conditions). */
  candidates: (row: StoredRecord) => StoredRecord[];
  conditions: unknown[];
}

export interface ModelState {
  tables: Record<TableName, Map<number, StoredRecord>>;
  nextIds: Record<TableName, number>;
  /** Checksums accepted as given (stub mode's `demo`), per contact id. */
  fixedChecksums: Map<number, string[]>;
  /** Domain settings changed from CiviCRM's defaults (settings.ts), by name. */
  settings: Map<string, string>;
  secret: string;
}

/** An opaque deep copy of the whole model, for `restore()`. */
export type ModelSnapshot = Readonly<{ readonly state: unknown }>;

export interface PseudoOption {
  /** The stored value, as a string. */
  id: string;
  name: string;
  label: string;
}

export type OptionSource =
  | { kind: 'optionGroup'; name: string }
  | { kind: 'optionGroupId'; id: number }
  | { kind: 'entity'; table: TableName; nameField: string; labelField: string }
  | { kind: 'fixed'; options: PseudoOption[] };

/** What a computed or defaulted field may read of the model: its clock and its file URLs. */
export interface FieldContext {
  localNow(): string;
  api4FileUrl(fileId: number, joinedFrom?: unknown): string | null;
}

export interface FieldDef {
  name: string;
  type: CrmDataType;
  /** Multi-valued (target_contact_id, multiselect custom fields): stored and returned as arrays. */
  serialize?: boolean;
  /** Target of implicit dot joins (`contact_id_b.display_name`). */
  fk?: TableName;
  options?: OptionSource;
  /** Never taken from `values` (ids, computed columns). */
  readOnly?: boolean;
  /** Real field, but not part of `*` (CiviCRM's "extra" fields such as target_contact_id). */
  extra?: boolean;
  /** Value filled on create when `values` lacks it. */
  initial?: (model: FieldContext) => unknown;
  compute?: (record: StoredRecord, model: FieldContext) => unknown;
  /** Set only for custom fields. */
  customFieldId?: number;
  /** A field 5.81 lacks (APIv4 drops it from select there). */
  since614?: boolean;
}

export interface EntityDef {
  name: EntityName;
  fields: FieldDef[];
  /** CustomGroup.extends values whose fields belong to this entity. */
  customExtends?: string[];
  /** Boolean columns that `get` filters to false unless the where clause names them. */
  hiddenByDefault?: string[];
  /** Mandatory on create. */
  required?: string[];
  actions: string[];
  /** Provided by the repository's extension: unknown unless it is installed. */
  extension?: boolean;
}
