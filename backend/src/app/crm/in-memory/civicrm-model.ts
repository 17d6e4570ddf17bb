import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { toCrmLocalTime } from '../crm-local-time';
import type { CrmRow } from '../crm-client';

/**
 * An in-memory CiviCRM: the entities this service touches, evaluated with APIv4 semantics
 * (select with joins and pseudoconstants, where/orderBy/limit, typed values, checksums) plus
 * the one APIv3 call the service makes (Attachment.get). It is the CRM of stub mode (through
 * InMemoryCrmClient) and of the HTTP emulator, so there is one fake CRM, not two.
 *
 * It is strict where CiviCRM is strict (unknown where fields, illegal operators, unknown
 * top-level params, unknown custom fields in values are all errors), because a fake that
 * forgives mistakes lets them reach production.
 *
 * A fresh model holds what a fresh CiviCRM holds (activity types and statuses, stock
 * relationship types, the domain organization); the deployment's custom fields and the demo
 * contacts come from a seed function (see demo-data.ts).
 */

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
  'Int' | 'Float' | 'Money' | 'String' | 'Memo' | 'Boolean' | 'Date' | 'Timestamp' | 'File';

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
export const CHECKIN_EXTENSION_VERSION = '1.0.0';

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
type TableName = Exclude<EntityName, 'RelationshipCache' | 'CheckinMiddleware'>;
const TABLE_NAMES = ENTITY_NAMES.filter(
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
type Operator = (typeof API4_OPERATORS)[number];

/** CiviCRM's default checksum lifetime (setting checksum_timeout): 7 days. */
export const DEFAULT_CHECKSUM_TTL_HOURS = 168;

// ---------------------------------------------------------------------------------------------
// State

interface StoredRecord {
  id: number;
  /** Core columns (and File content as bytes, which no select can reach). */
  fields: Record<string, unknown>;
  /** Custom values keyed by CustomField id. */
  custom: Record<string, unknown>;
  /** In a get with `join`: the record each alias joined to this row (null: none, LEFT join). */
  joined?: Record<string, StoredRecord | null>;
}

/** One `join` entry of a get, compiled. */
interface JoinSpec {
  alias: string;
  def: EntityDef;
  kind: 'LEFT' | 'INNER' | 'EXCLUDE';
  /** Records of the joined entity a base row may pair with (before the conditions). */
  candidates: (row: StoredRecord) => StoredRecord[];
  conditions: unknown[];
}

interface ModelState {
  tables: Record<TableName, Map<number, StoredRecord>>;
  nextIds: Record<TableName, number>;
  /** Checksums accepted as given (stub mode's `demo`), per contact id. */
  fixedChecksums: Map<number, string[]>;
  secret: string;
}

/** An opaque deep copy of the whole model, for `restore()`. */
export type ModelSnapshot = Readonly<{ readonly state: unknown }>;

// ---------------------------------------------------------------------------------------------
// Schema

interface PseudoOption {
  /** The stored value, as a string. */
  id: string;
  name: string;
  label: string;
}

type OptionSource =
  | { kind: 'optionGroup'; name: string }
  | { kind: 'optionGroupId'; id: number }
  | { kind: 'entity'; table: TableName; nameField: string; labelField: string }
  | { kind: 'fixed'; options: PseudoOption[] };

interface FieldDef {
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
  initial?: (model: CiviCrmModel) => unknown;
  compute?: (record: StoredRecord, model: CiviCrmModel) => unknown;
  /** Set only for custom fields. */
  customFieldId?: number;
  /** A field 5.81 lacks (APIv4 drops it from select there). */
  since614?: boolean;
}

interface EntityDef {
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

const CRUD = ['get', 'create', 'update', 'delete', 'save'];
const now = (model: CiviCrmModel) => model.localNow();
const id: FieldDef = { name: 'id', type: 'Int', readOnly: true };
const created: FieldDef[] = [
  { name: 'created_date', type: 'Timestamp', readOnly: true, initial: now },
  { name: 'modified_date', type: 'Timestamp', readOnly: true, initial: now },
];
const bool = (name: string, initial?: boolean): FieldDef => ({
  name,
  type: 'Boolean',
  ...(initial === undefined ? {} : { initial: () => initial }),
});
const str = (name: string): FieldDef => ({ name, type: 'String' });
const contactRef = (name: string, extra?: boolean): FieldDef => ({
  name,
  type: 'Int',
  fk: 'Contact',
  ...(extra ? { extra } : {}),
});
const fixedOptions = (...names: string[]): OptionSource => ({
  kind: 'fixed',
  options: names.map((name) => ({ id: name, name, label: name })),
});
const CONTACT_TYPES = fixedOptions('Individual', 'Organization', 'Household');

const ENTITIES: Record<EntityName, EntityDef> = {
  Contact: {
    name: 'Contact',
    fields: [
      id,
      { name: 'contact_type', type: 'String', options: CONTACT_TYPES },
      str('first_name'),
      str('last_name'),
      str('display_name'),
      str('sort_name'),
      str('organization_name'),
      bool('is_deleted', false),
      { name: 'email_primary', type: 'Int', fk: 'Email' },
      ...created,
    ],
    customExtends: ['Contact', 'Individual', 'Organization', 'Household'],
    hiddenByDefault: ['is_deleted'],
    required: ['contact_type'],
    actions: [...CRUD, 'validateChecksum', 'getChecksum'],
  },
  Email: {
    name: 'Email',
    fields: [
      id,
      contactRef('contact_id'),
      str('email'),
      bool('is_primary', false),
      { name: 'location_type_id', type: 'Int', initial: () => 1 },
    ],
    required: ['contact_id', 'email'],
    actions: CRUD,
  },
  Activity: {
    name: 'Activity',
    fields: [
      id,
      { name: 'activity_type_id', type: 'Int', options: { kind: 'optionGroup', name: 'activity_type' } },
      str('subject'),
      { name: 'details', type: 'Memo' },
      { name: 'activity_date_time', type: 'Timestamp', initial: now },
      {
        name: 'status_id',
        type: 'Int',
        options: { kind: 'optionGroup', name: 'activity_status' },
        initial: () => 2,
      },
      contactRef('source_contact_id', true),
      { ...contactRef('target_contact_id', true), serialize: true, initial: () => [] },
      { ...contactRef('assignee_contact_id', true), serialize: true, initial: () => [] },
      { name: 'priority_id', type: 'Int', initial: () => 2 },
      bool('is_deleted', false),
      bool('is_test', false),
      ...created,
    ],
    customExtends: ['Activity'],
    hiddenByDefault: ['is_deleted', 'is_test'],
    required: ['activity_type_id', 'source_contact_id'],
    actions: CRUD,
  },
  Relationship: {
    name: 'Relationship',
    fields: [
      id,
      contactRef('contact_id_a'),
      contactRef('contact_id_b'),
      {
        name: 'relationship_type_id',
        type: 'Int',
        fk: 'RelationshipType',
        options: {
          kind: 'entity',
          table: 'RelationshipType',
          nameField: 'name_a_b',
          labelField: 'label_a_b',
        },
      },
      bool('is_active', true),
      { name: 'start_date', type: 'Date' },
      { name: 'end_date', type: 'Date' },
      str('description'),
    ],
    customExtends: ['Relationship'],
    required: ['contact_id_a', 'contact_id_b', 'relationship_type_id'],
    actions: CRUD,
  },
  RelationshipType: {
    name: 'RelationshipType',
    fields: [
      id,
      str('name_a_b'),
      str('label_a_b'),
      str('name_b_a'),
      str('label_b_a'),
      str('description'),
      { name: 'contact_type_a', type: 'String', options: CONTACT_TYPES },
      { name: 'contact_type_b', type: 'String', options: CONTACT_TYPES },
      bool('is_active', true),
      bool('is_reserved', false),
    ],
    required: ['name_a_b'],
    actions: CRUD,
  },
  RelationshipCache: {
    name: 'RelationshipCache',
    fields: [
      id,
      { name: 'relationship_id', type: 'Int', fk: 'Relationship' },
      { name: 'relationship_type_id', type: 'Int', fk: 'RelationshipType' },
      str('orientation'),
      contactRef('near_contact_id'),
      str('near_relation'),
      contactRef('far_contact_id'),
      str('far_relation'),
      bool('is_active'),
      { name: 'start_date', type: 'Date' },
      { name: 'end_date', type: 'Date' },
    ],
    actions: ['get'],
  },
  CustomGroup: {
    name: 'CustomGroup',
    fields: [
      id,
      str('name'),
      str('title'),
      str('extends'),
      { name: 'style', type: 'String', initial: () => 'Inline' },
      str('table_name'),
      { name: 'weight', type: 'Int' },
      bool('is_active', true),
    ],
    required: ['name', 'title', 'extends'],
    actions: CRUD,
  },
  CustomField: {
    name: 'CustomField',
    fields: [
      id,
      {
        name: 'custom_group_id',
        type: 'Int',
        fk: 'CustomGroup',
        options: { kind: 'entity', table: 'CustomGroup', nameField: 'name', labelField: 'title' },
      },
      str('name'),
      str('label'),
      { name: 'data_type', type: 'String', initial: () => 'String' },
      { name: 'html_type', type: 'String', initial: () => 'Text' },
      {
        name: 'option_group_id',
        type: 'Int',
        fk: 'OptionGroup',
        options: { kind: 'entity', table: 'OptionGroup', nameField: 'name', labelField: 'title' },
      },
      { name: 'serialize', type: 'Int', initial: () => 0 },
      str('column_name'),
      { name: 'weight', type: 'Int' },
      { name: 'text_length', type: 'Int' },
      bool('is_active', true),
    ],
    required: ['custom_group_id', 'name', 'label'],
    actions: CRUD,
  },
  OptionGroup: {
    name: 'OptionGroup',
    fields: [
      id,
      str('name'),
      str('title'),
      str('description'),
      bool('is_active', true),
      bool('is_reserved', false),
    ],
    required: ['name'],
    actions: CRUD,
  },
  OptionValue: {
    name: 'OptionValue',
    fields: [
      id,
      {
        name: 'option_group_id',
        type: 'Int',
        fk: 'OptionGroup',
        options: { kind: 'entity', table: 'OptionGroup', nameField: 'name', labelField: 'title' },
      },
      str('label'),
      str('value'),
      str('name'),
      str('description'),
      { name: 'weight', type: 'Int' },
      bool('is_active', true),
      bool('is_default', false),
    ],
    required: ['option_group_id', 'label'],
    actions: CRUD,
  },
  File: {
    name: 'File',
    fields: [
      id,
      str('mime_type'),
      str('description'),
      // Set by CiviCRM from file_name (a unique name on disk); values cannot set it.
      { name: 'uri', type: 'String', readOnly: true },
      bool('is_public', false),
      { name: 'upload_date', type: 'Timestamp' },
      { name: 'created_id', type: 'Int', fk: 'Contact', readOnly: true },
      {
        // CiviCRM's file_name is the uri without its unique part (CRM_Utils_File::cleanFileName).
        name: 'file_name',
        type: 'String',
        extra: true,
        compute: (record) => storedFileName(record),
      },
      {
        name: 'url',
        type: 'String',
        extra: true,
        readOnly: true,
        compute: (record, model) => model.api4FileUrl(record.id, record.fields[FILE_ENTITY_ID]),
      },
      {
        // 6.14 reads the stored bytes back as text; 5.81 has no such field.
        name: 'content',
        type: 'String',
        extra: true,
        since614: true,
        compute: (record) => (record.fields['uri'] ? fileBytes(record).toString('utf8') : null),
      },
    ],
    actions: CRUD,
  },
  CheckinMiddleware: {
    name: 'CheckinMiddleware',
    fields: [],
    extension: true,
    actions: ['info'],
  },
};

/** Top-level params each action accepts; anything else is a 500, as in CiviCRM. */
const ACTION_PARAMS: Record<string, readonly string[]> = {
  get: ['select', 'join', 'where', 'orderBy', 'limit', 'offset'],
  create: ['values', 'reload'],
  update: ['values', 'where', 'orderBy', 'limit', 'offset', 'reload'],
  delete: ['where', 'orderBy', 'limit', 'offset', 'useTrash'],
  save: ['records', 'defaults', 'match', 'reload'],
  validateChecksum: ['contactId', 'checksum'],
  getChecksum: ['contactId', 'ttl'],
  info: [],
};
const COMMON_PARAMS = ['checkPermissions', 'debug', 'language'];
/** Real APIv4 params this model cannot evaluate: refused loudly rather than ignored. */
const UNSUPPORTED_PARAMS = new Set(['groupBy', 'having', 'chain', 'translationMode']);

type PermissionNeed = string | readonly string[];
const ACCESS = 'access CiviCRM';

/**
 * CRM_Core_Permission::getEntityActionPermissions for the modelled entities: every entry is
 * needed; an inner list means any one of it. Reads of contacts and relationships are governed by
 * ACLs instead (see aclAllows).
 */
function requiredPermissions(entity: EntityName, action: string): PermissionNeed[] {
  const read = action === 'get';
  switch (entity) {
    case 'Contact':
      if (action === 'getChecksum') return ['administer CiviCRM'];
      if (action === 'validateChecksum' || read) return [];
      if (action === 'create') return [ACCESS, 'add contacts'];
      if (action === 'delete') return [ACCESS, 'delete contacts'];
      return [ACCESS, 'edit all contacts'];
    case 'Email':
    case 'Relationship':
    case 'RelationshipCache':
      return read ? [] : [ACCESS, 'edit all contacts'];
    case 'RelationshipType':
      return read ? [ACCESS] : ['administer CiviCRM'];
    case 'Activity':
      if (read) return [ACCESS];
      return action === 'delete' ? [ACCESS, 'delete activities'] : [ACCESS, 'view all activities'];
    case 'CustomGroup':
    case 'CustomField':
      return read ? [[ACCESS, 'access all custom data']] : ['administer CiviCRM data'];
    case 'OptionGroup':
    case 'OptionValue':
      return read ? [ACCESS] : [ACCESS, ['administer CiviCRM', 'manage event profiles']];
    case 'File':
      return [ACCESS, 'access uploaded files'];
    case 'CheckinMiddleware':
      return [ACCESS];
  }
}

/** The record types of ActivityContact (option group activity_contacts). */
const ACTIVITY_CONTACT_TYPES: PseudoOption[] = [
  { id: '1', name: 'Activity Assignees', label: 'Activity Assignees' },
  { id: '2', name: 'Activity Source', label: 'Activity Source' },
  { id: '3', name: 'Activity Targets', label: 'Activity Targets' },
];

/** A Contact reached through the ActivityContact bridge: the contact plus the bridge's columns. */
const ACTIVITY_CONTACT_DEF: EntityDef = {
  ...ENTITIES.Contact,
  fields: [
    ...ENTITIES.Contact.fields,
    { name: 'activity_id', type: 'Int', fk: 'Activity' },
    { name: 'record_type_id', type: 'Int', options: { kind: 'fixed', options: ACTIVITY_CONTACT_TYPES } },
  ],
};

/** On a File joined to a row (5.81's url names that row as `eid`). */
const FILE_ENTITY_ID = '__eid';

function asArray(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

// ---------------------------------------------------------------------------------------------
// Small value helpers

type Params = Record<string, unknown>;
type Predicate = (record: StoredRecord) => boolean;

interface ResolvedField {
  def: FieldDef;
  /** Pseudoconstant names and labels compare case-sensitively; columns compare like MySQL. */
  pseudo: boolean;
  get: (record: StoredRecord) => unknown;
}

const fail = (message: string): never => {
  throw new Api4Error(500, message);
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Callers never share references with the state: everything crosses as JSON, like the wire. */
function jsonCopy<T>(value: T): T {
  if (value === undefined) return value;
  try {
    return JSON.parse(JSON.stringify(value)) as T;
  } catch {
    return fail('Parameters are not JSON-serializable');
  }
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

export function formatTimestamp(date: Date): string {
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
  );
}

const DATE_INPUT =
  /^(\d{4})-?(\d{2})-?(\d{2})(?:[ T]?(\d{2}):?(\d{2})(?::?(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Normalizes a date input the way CiviCRM's formatter does: ISO forms, `YYYYMMDD[HHMMSS]` and
 * `now`; a zone offset is converted to UTC (the model's server time zone). Returns undefined
 * for anything that is not a date.
 */
function normalizeDate(input: string, withTime: boolean, clock: Date, timeZone = 'UTC'): string | undefined {
  const text = input.trim();
  let stamp: string;
  if (text === 'now') {
    stamp = formatInZone(clock, timeZone);
  } else {
    const match = DATE_INPUT.exec(text);
    if (!match) return undefined;
    const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = match;
    if (zone) {
      const parsed = new Date(
        `${y}-${mo}-${d}T${h}:${mi}:${s}${zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone}`,
      );
      if (Number.isNaN(parsed.getTime())) return undefined;
      // PHP's strtotime: an instant with an offset becomes the server's local time.
      stamp = formatInZone(parsed, timeZone);
    } else {
      stamp = `${y}-${mo}-${d} ${h}:${mi}:${s}`;
      if (!isRealDate(stamp)) return undefined;
    }
  }
  return withTime ? stamp : stamp.slice(0, 10);
}

/**
 * A date as CiviCRM writes one (strtotime, then date()): an impossible day rolls over
 * (2026-02-30 is 2026-03-02) and anything unreadable is the epoch in the CRM's zone.
 */
function writtenDate(input: string, withTime: boolean, clock: Date, timeZone: string): string {
  const strict = normalizeDate(input, withTime, clock, timeZone);
  if (strict !== undefined) return strict;
  const match = DATE_INPUT.exec(input.trim());
  const [, y, mo, d, h = '00', mi = '00', s = '00'] = match ?? [];
  const stamp = match
    ? formatTimestamp(
        new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s))),
      )
    : formatInZone(new Date(0), timeZone);
  return withTime ? stamp : stamp.slice(0, 10);
}

function isRealDate(stamp: string): boolean {
  const parsed = new Date(`${stamp.replace(' ', 'T')}Z`);
  return !Number.isNaN(parsed.getTime()) && formatTimestamp(parsed) === stamp;
}

const NUMERIC_TYPES: ReadonlySet<CrmDataType> = new Set(['Int', 'Float', 'Money', 'File', 'Boolean']);

function toNumber(value: unknown): number {
  if (typeof value === 'boolean') return value ? 1 : 0;
  const number = Number(value);
  // MySQL casts a non-numeric string to 0 in a numeric comparison.
  return Number.isNaN(number) ? 0 : number;
}

/** Brings a where value to the stored form of its field so comparisons act like MySQL's. */
function comparable(field: ResolvedField, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const type = field.def.type;
  if (field.pseudo) return String(value);
  if (NUMERIC_TYPES.has(type)) return toNumber(value);
  if ((type === 'Date' || type === 'Timestamp') && typeof value === 'string') {
    const withTime = type === 'Timestamp';
    return normalizeDate(value, withTime, new Date(0)) ?? value;
  }
  if (typeof value === 'boolean') return value ? '1' : '0';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function compareComparable(a: unknown, b: unknown, caseSensitive: boolean): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const left = caseSensitive ? String(a) : String(a).toLowerCase();
  const right = caseSensitive ? String(b) : String(b).toLowerCase();
  return left < right ? -1 : left > right ? 1 : 0;
}

function likeRegex(pattern: string, caseSensitive: boolean): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern.charAt(index);
    if (char === '\\' && index + 1 < pattern.length) {
      source += escapeRegex(pattern.charAt(++index));
    } else if (char === '%') {
      source += '[\\s\\S]*';
    } else if (char === '_') {
      source += '[\\s\\S]';
    } else {
      source += escapeRegex(char);
    }
  }
  return new RegExp(`^${source}$`, caseSensitive ? '' : 'i');
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function isEmptyValue(value: unknown): boolean {
  return (
    value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * CRM_Utils_String::munge: every run of characters other than ASCII letters and digits becomes
 * one `_`, then the name is cut to `length`. (A name with no letter or digit at all gets a
 * random one there; here a fixed placeholder keeps the model deterministic.)
 */
export function munge(name: string, length = 63): string {
  const munged = name.trim().replace(/[^a-zA-Z0-9]+/g, '_');
  const safe = munged.replace(/^_+|_+$/g, '') === '' ? 'x'.repeat(Math.min(length || 8, 8)) : munged;
  return length ? safe.slice(0, length) : safe;
}

/** The file extensions a fresh CiviCRM accepts (option group safe_file_extension). */
const SAFE_FILE_EXTENSIONS = new Set([
  'jpg',
  'jpeg',
  'png',
  'gif',
  'txt',
  'pdf',
  'doc',
  'xls',
  'rtf',
  'csv',
  'ppt',
  'docx',
  'xlsx',
  'odt',
  'ics',
  'pptx',
  'ico',
]);
const RESTRICTED_EXTENSIONS = /(php|php\d|phtml|phar|pl|py|cgi|asp|js|sh|exe|pcgi\d)/i;

/**
 * CRM_Utils_File::makeFileName: the name a file gets on disk, `<munged base>_<32 hex>.<ext>`;
 * an extension CiviCRM does not accept becomes part of the base and the file ends `.unknown`.
 */
export function makeFileName(fileName: string, unique: string): string {
  const dot = fileName.lastIndexOf('.');
  const extension = dot > 0 ? fileName.slice(dot + 1) : '';
  const base = dot > 0 ? fileName.slice(0, dot) : fileName;
  const safe = SAFE_FILE_EXTENSIONS.has(extension.toLowerCase()) && !RESTRICTED_EXTENSIONS.test(extension);
  return safe
    ? `${munge(`${base}_${unique}`, 240)}.${extension}`
    : `${munge(`${base}_${extension}_${unique}`, 240)}.unknown`;
}

/** CRM_Utils_File::cleanFileName: the uri without its unique part, as File.file_name reads. */
export function cleanFileName(uri: string): string {
  return uri.replace(/_[a-f0-9]{32}\./, '.');
}

function storedFileName(record: StoredRecord): string | null {
  const uri = record.fields['uri'];
  return typeof uri === 'string' ? cleanFileName(uri) : null;
}

function fileBytes(record: StoredRecord): Buffer {
  const content = record.fields[FILE_BYTES];
  return content instanceof Uint8Array ? Buffer.from(content) : Buffer.alloc(0);
}

/** The stored bytes of a File record: a column no select reaches. */
const FILE_BYTES = '__bytes';

/** `YYYY-MM-DD HH:MM:SS` of an instant, as a wall clock in `timeZone` reads it. */
export function formatInZone(date: Date, timeZone: string): string {
  return timeZone === 'UTC' ? formatTimestamp(date) : toCrmLocalTime(date, timeZone);
}

/** The create answer's form of a timestamp: `YYYYMMDDhhmmss`. */
function compactTimestamp(value: unknown): unknown {
  return typeof value === 'string' ? value.replace(/[- :]/g, '') : value;
}

/** MySQL DECIMAL(20,2): half away from zero, on the decimal text rather than a binary float. */
function roundMoney(text: string): number {
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match) return Math.round(Number(text) * 100) / 100;
  const [, sign = '', whole = '', fraction = ''] = match;
  const cents = BigInt(`${whole || '0'}${fraction.padEnd(2, '0').slice(0, 2)}`);
  const rounded = (fraction.charAt(2) || '0') >= '5' ? cents + 1n : cents;
  const value = Number(rounded) / 100;
  return sign ? -value : value;
}

/** A DOUBLE read back through PHP: 14 significant digits (PHP's `precision`). */
function phpFloat(value: number): number {
  return Number(value.toPrecision(14));
}

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

function isInt32(value: unknown): boolean {
  return typeof value !== 'number' || (value >= INT32_MIN && value <= INT32_MAX);
}

/** CRM_Utils_Weight::getNewWeight over a group's weights. */
function newWeight(weights: number[]): number {
  if (weights.length === 0) return 1;
  const duplicated = new Set(weights).size < weights.length;
  if (!duplicated) return Math.max(...weights);
  return Math.min(Math.max(...weights) + 1, Math.min(...weights) + weights.length - 1);
}

/** Set on a File whose content the extension decoded (its create answer says so). */
const FILE_DECODED = '__decoded';

/** What CiviCRM answers when MySQL refuses a write (a 32-bit Int overflow, say). */
const DB_ERROR = 'DB Error: unknown error';

function base64Url(input: Buffer | string): string {
  return Buffer.from(input).toString('base64url');
}

// ---------------------------------------------------------------------------------------------
// The model

export class CiviCrmModel {
  baseUrl: string;
  readonly civicrmVersion: CiviCrmVersion;
  readonly extensionInstalled: boolean;
  readonly timeZone: string;
  private state: ModelState;
  private readonly clock: () => Date;
  private seeded: ModelSnapshot;
  /** True while the seed runs: a site set up long ago, whose names predate munging. */
  private seeding = false;
  /** The call being answered (permissions, the service's marker header). */
  private context: Required<Pick<CallContext, 'user'>> & CallContext = { user: ADMIN_USER };
  /** Custom fields per entity, rebuilt after any write to CustomGroup or CustomField. */
  private customCache = new Map<EntityName, Map<string, FieldDef>>();

  constructor(options: CiviCrmModelOptions = {}) {
    this.baseUrl = (options.baseUrl ?? 'http://crm.invalid').replace(/\/+$/, '');
    this.civicrmVersion = options.civicrmVersion ?? '6.14';
    this.extensionInstalled = options.extensionInstalled ?? true;
    this.timeZone = options.timeZone ?? 'UTC';
    // An unknown zone fails here, not on the first dated write.
    formatInZone(new Date(0), this.timeZone);
    this.clock = options.now ?? (() => new Date());
    this.state = emptyState(options.secret ?? randomBytes(16).toString('hex'));
    this.seeding = true;
    try {
      this.seedStock();
      options.seed?.(this);
    } finally {
      this.seeding = false;
    }
    this.seeded = this.snapshot();
  }

  now(): Date {
    return this.clock();
  }

  /** "Now" as the CRM's wall clock reads it, `YYYY-MM-DD HH:MM:SS`. */
  localNow(): string {
    return formatInZone(this.now(), this.timeZone);
  }

  private get is614(): boolean {
    return this.civicrmVersion === '6.14';
  }

  // --- APIv4 -------------------------------------------------------------------------------

  /**
   * One APIv4 call; returns the `values` rows or throws Api4Error like CiviCRM would answer.
   * Without a context the caller is an administrator, as the service's API user is.
   */
  api4(entity: string, action: string, params: unknown = {}, context: CallContext = {}): CrmRow[] {
    const previous = this.context;
    this.context = { ...context, user: context.user ?? ADMIN_USER };
    try {
      const def = this.entityDef(entity, action);
      if (!def.actions.includes(action)) fail(`Api ${entity} ${action} version 4 does not exist.`);
      const input = this.checkParams(action, jsonCopy(params));
      this.authorize(def, action);
      return jsonCopy(this.dispatch(def, action, input));
    } finally {
      this.context = previous;
    }
  }

  /** Whether the acting user holds `permission` (the admin role holds every one). */
  hasPermission(permission: string, user: ApiUser = this.context.user): boolean {
    return user.permissions.includes(ALL_PERMISSIONS) || user.permissions.includes(permission);
  }

  private entityDef(entity: string, action = '...'): EntityDef {
    const def = (ENTITIES as Record<string, EntityDef | undefined>)[entity];
    if (!def || (def.extension && !this.extensionInstalled)) {
      fail(`API (${entity}, ${action}) does not exist (or the extension it belongs to is not enabled).`);
    }
    return def as EntityDef;
  }

  /** CRM_Core_Permission::getEntityActionPermissions for the entities modelled. */
  private authorize(def: EntityDef, action: string): void {
    const required = requiredPermissions(def.name, action);
    const allowed = required.every((need) =>
      typeof need === 'string' ? this.hasPermission(need) : need.some((one) => this.hasPermission(one)),
    );
    if (!allowed) throw new Api4Error(403, 'Authorization failed');
  }

  private checkParams(action: string, params: unknown): Params {
    // An empty JSON array decodes to an empty PHP array: the call runs with no params.
    if (Array.isArray(params) && params.length === 0) return {};
    if (!isPlainObject(params)) return fail('Params must be an object');
    const allowed = [...(ACTION_PARAMS[action] ?? []), ...COMMON_PARAMS];
    for (const key of Object.keys(params)) {
      if (UNSUPPORTED_PARAMS.has(key)) fail(`The parameter "${key}" is not supported by this model`);
      // CiviCRM looks for a setter named after the param.
      if (!allowed.includes(key))
        fail(`Unknown api parameter: set${key.charAt(0).toUpperCase()}${key.slice(1)}`);
    }
    return params;
  }

  private dispatch(def: EntityDef, action: string, params: Params): CrmRow[] {
    switch (action) {
      case 'get':
        return this.get(def, params);
      case 'create':
        return [this.create(def, this.valuesParam(params))];
      case 'update':
        return this.update(def, params);
      case 'delete':
        return this.delete(def, params);
      case 'save':
        return this.save(def, params);
      case 'validateChecksum':
        return [{ valid: this.validateChecksum(params['contactId'], params['checksum']) }];
      case 'getChecksum':
        return [this.getChecksum(params['contactId'], params['ttl'])];
      case 'info':
        return [
          {
            extension_version: CHECKIN_EXTENSION_VERSION,
            civicrm_version: CIVICRM_RELEASES[this.civicrmVersion],
            timezone: this.timeZone,
          },
        ];
      default:
        return fail(`Api ${def.name} ${action} version 4 does not exist.`);
    }
  }

  // --- get ---------------------------------------------------------------------------------

  private get(def: EntityDef, params: Params): CrmRow[] {
    const joins = this.compileJoins(def, params['join']);
    this.joinAliases = new Map(joins.map((join) => [join.alias, join]));
    try {
      const select = this.resolveSelect(def, params['select']);
      const records = this.aclAllows(def) ? this.query(def, params, joins) : [];
      return records.map((record) => {
        const row: CrmRow = {};
        for (const [key, field] of select) row[key] = field.get(record);
        return row;
      });
    } finally {
      this.joinAliases = new Map();
    }
  }

  /** Contacts, activities and their kin are filtered by ACLs: a user without them sees nothing. */
  private aclAllows(def: EntityDef): boolean {
    switch (def.name) {
      case 'Contact':
      case 'Email':
      case 'Relationship':
      case 'RelationshipCache':
        return this.hasPermission('view all contacts') || this.hasPermission('edit all contacts');
      case 'Activity':
        return this.hasPermission('view all activities');
      case 'CustomGroup':
      case 'CustomField':
        return this.hasPermission('access all custom data');
      case 'RelationshipType':
      case 'OptionGroup':
      case 'OptionValue':
      case 'File':
      case 'CheckinMiddleware':
        return true;
    }
  }

  /** where + orderBy + offset/limit over an entity, hidden records excluded by default. */
  private query(def: EntityDef, params: Params, joins: JoinSpec[] = []): StoredRecord[] {
    const where = this.compileWhere(def, params['where']);
    const order = this.compileOrderBy(def, params['orderBy']);
    const limit = this.nonNegativeInt(params['limit'], 'limit');
    const offset = this.nonNegativeInt(params['offset'], 'offset');
    const matched = this.joinRows(def, this.records(def), joins).filter(where).sort(order);
    return matched.slice(offset, limit ? offset + limit : undefined);
  }

  // --- join ----------------------------------------------------------------------------------

  /** Aliases of the get being answered, so `alias.field` resolves. */
  private joinAliases = new Map<string, JoinSpec>();

  /**
   * `join: [["File AS f", "LEFT", [cond]...]]` and the bridge form
   * `["Contact AS src", "LEFT", "ActivityContact", [cond]...]`; conditions compare fields of
   * the base entity and the alias, or a field with a quoted literal.
   */
  private compileJoins(def: EntityDef, join: unknown): JoinSpec[] {
    if (join === undefined) return [];
    if (!Array.isArray(join)) return fail('join must be an array');
    return join.map((entry: unknown): JoinSpec => {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string') return fail('Invalid join');
      const match = /^(\w+) AS (\w+)$/.exec(entry[0]);
      if (!match) return fail(`Invalid join: ${entry[0]}`);
      const [, entityName = '', alias = ''] = match;
      const kind = entry[1] === undefined ? 'LEFT' : entry[1];
      if (kind !== 'LEFT' && kind !== 'INNER' && kind !== 'EXCLUDE')
        return fail(`Invalid join type: ${String(kind)}`);
      const target = this.entityDef(entityName);
      let rest = entry.slice(2) as unknown[];
      if (typeof rest[0] === 'string') {
        const bridge = rest[0];
        rest = rest.slice(1);
        if (bridge !== 'ActivityContact' || def.name !== 'Activity' || target.name !== 'Contact') {
          return fail(`Bridge ${bridge} cannot join ${target.name} to ${def.name}`);
        }
        return {
          alias,
          def: ACTIVITY_CONTACT_DEF,
          kind,
          candidates: (row) => this.activityContacts(row),
          conditions: rest,
        };
      }
      if (target.name === 'RelationshipCache' || target.name === 'CheckinMiddleware') {
        return fail(`${target.name} cannot be joined`);
      }
      const table = target.name;
      return {
        alias,
        def: target,
        kind,
        // 5.81 renders a joined file's url with the row it hangs from (`eid`).
        candidates: (row) =>
          [...this.state.tables[table].values()].map((record) =>
            table === 'File' ? { ...record, fields: { ...record.fields, [FILE_ENTITY_ID]: row.id } } : record,
          ),
        conditions: rest,
      };
    });
  }

  /** The contacts of an activity as ActivityContact pairs them: source, targets, assignees. */
  private activityContacts(activity: StoredRecord): StoredRecord[] {
    const pairs: Array<[unknown, number]> = [[activity.fields['source_contact_id'], 2]];
    for (const id of asArray(activity.fields['target_contact_id'])) pairs.push([id, 3]);
    for (const id of asArray(activity.fields['assignee_contact_id'])) pairs.push([id, 1]);
    const rows: StoredRecord[] = [];
    for (const [contactId, recordType] of pairs) {
      const contact = this.state.tables.Contact.get(Number(contactId));
      if (!contact) continue;
      rows.push({
        id: contact.id,
        fields: { ...contact.fields, activity_id: activity.id, record_type_id: recordType },
        custom: contact.custom,
      });
    }
    return rows;
  }

  private joinRows(def: EntityDef, records: StoredRecord[], joins: JoinSpec[]): StoredRecord[] {
    let rows = records;
    for (const join of joins) {
      const conditions = join.conditions.map((condition) => this.compileJoinCondition(def, condition));
      const next: StoredRecord[] = [];
      for (const row of rows) {
        const paired = join
          .candidates(row)
          .map((candidate) => ({ ...row, joined: { ...row.joined, [join.alias]: candidate } }))
          .filter((candidate) => conditions.every((test) => test(candidate)));
        if (join.kind === 'EXCLUDE') {
          if (paired.length === 0) next.push({ ...row, joined: { ...row.joined, [join.alias]: null } });
        } else if (paired.length > 0) {
          next.push(...paired);
        } else if (join.kind === 'LEFT') {
          next.push({ ...row, joined: { ...row.joined, [join.alias]: null } });
        }
      }
      rows = next;
    }
    return rows;
  }

  private compileJoinCondition(def: EntityDef, condition: unknown): Predicate {
    if (!Array.isArray(condition) || condition.length !== 3 || typeof condition[0] !== 'string') {
      return fail(`Invalid join condition: ${JSON.stringify(condition)}`);
    }
    const [left, operator, right] = condition as [string, unknown, unknown];
    if (operator !== '=' && operator !== '!=') return fail(`Illegal operator`);
    const side = (expression: unknown): ((row: StoredRecord) => unknown) => {
      if (typeof expression === 'number') return () => expression;
      if (typeof expression !== 'string') return fail(`Invalid join condition: ${JSON.stringify(condition)}`);
      const quoted = /^"(.*)"$|^'(.*)'$/.exec(expression);
      if (quoted) {
        const literal = quoted[1] ?? quoted[2] ?? '';
        return () => literal;
      }
      if (/^-?\d+$/.test(expression)) return () => Number(expression);
      const field = this.resolve(def, expression) ?? fail(`Invalid field '${expression}'`);
      return field.get;
    };
    const a = side(left);
    const b = side(right);
    return (row) => {
      const x = a(row);
      const y = b(row);
      const same = x !== null && y !== null && x !== undefined && String(x) === String(y);
      return operator === '=' ? same : !same;
    };
  }

  private nonNegativeInt(value: unknown, name: string): number {
    if (value === undefined || value === null) return 0;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      fail(`${name} must be a non-negative integer`);
    }
    return value as number;
  }

  private resolveSelect(def: EntityDef, select: unknown): Array<[string, ResolvedField]> {
    if (select !== undefined && (!Array.isArray(select) || select.some((item) => typeof item !== 'string'))) {
      fail('select must be an array of strings');
    }
    const requested = (select as string[] | undefined)?.length ? (select as string[]) : ['*'];
    const names = ['id', ...requested.flatMap((name) => this.expandWildcard(def, name))];
    const resolved: Array<[string, ResolvedField]> = [];
    for (const name of new Set(names)) {
      // Unknown names are silently dropped, as CiviCRM does.
      const field = this.resolve(def, name);
      if (field) resolved.push([name, field]);
    }
    return resolved;
  }

  private expandWildcard(def: EntityDef, name: string): string[] {
    if (name === '*') return def.fields.filter((field) => !field.extra).map((field) => field.name);
    if (!name.endsWith('.*')) return [name];
    const keys = [...this.customFields(def).keys()];
    if (name === 'custom.*') return keys;
    const group = name.slice(0, -1);
    return keys.filter((key) => key.startsWith(group));
  }

  /** Resolves `field`, `fk.field`, `Group.Field`, `Group.FileField.file_name`, `...:name`. */
  private resolve(def: EntityDef, expression: string): ResolvedField | undefined {
    const colon = expression.lastIndexOf(':');
    const path = colon >= 0 ? expression.slice(0, colon) : expression;
    const suffix = colon >= 0 ? expression.slice(colon + 1) : undefined;
    const base = this.resolvePath(def, path.split('.'));
    if (!base || suffix === undefined) return base;
    if ((suffix !== 'name' && suffix !== 'label') || !base.def.options) return undefined;
    const options = this.optionsOf(base.def.options);
    const pick = (value: unknown) => {
      const option = options.find((candidate) => candidate.id === String(value));
      return option ? option[suffix] : null;
    };
    return {
      def: { ...base.def, type: 'String', fk: undefined, options: undefined },
      pseudo: true,
      get: (record) => {
        const value = base.get(record);
        if (value === null || value === undefined) return null;
        return Array.isArray(value) ? value.map(pick) : pick(value);
      },
    };
  }

  private resolvePath(def: EntityDef, parts: string[], top = true): ResolvedField | undefined {
    const join = top && parts.length >= 2 ? this.joinAliases.get(parts[0] ?? '') : undefined;
    if (join) {
      const inner = this.resolvePath(join.def, parts.slice(1), false);
      if (!inner) return undefined;
      const alias = join.alias;
      return {
        def: inner.def,
        pseudo: inner.pseudo,
        get: (record) => {
          const joined = record.joined?.[alias];
          return joined ? inner.get(joined) : null;
        },
      };
    }
    const custom = parts.length >= 2 ? this.customFields(def).get(`${parts[0]}.${parts[1]}`) : undefined;
    const field = custom ?? def.fields.find((candidate) => candidate.name === parts[0]);
    if (!field || (field.since614 && !this.is614)) return undefined;
    const rest = parts.slice(custom ? 2 : 1);
    const get = this.getterOf(field);
    if (rest.length === 0) return { def: field, pseudo: false, get };
    // Virtual fields (source_contact_id...) cannot be joined through; 5.81 has no implicit
    // join from a File custom field (both are dropped from select, invalid in where).
    if (!field.fk || field.serialize || field.extra) return undefined;
    if (custom && field.fk === 'File' && !this.is614) return undefined;
    const target = ENTITIES[field.fk];
    const inner = this.resolvePath(target, rest, false);
    if (!inner) return undefined;
    const table = field.fk;
    return {
      def: inner.def,
      pseudo: inner.pseudo,
      get: (record) => {
        const foreignId = get(record);
        const joined = foreignId === null ? undefined : this.state.tables[table].get(Number(foreignId));
        return joined ? inner.get(joined) : null;
      },
    };
  }

  private getterOf(field: FieldDef): (record: StoredRecord) => unknown {
    const customId = field.customFieldId;
    if (customId !== undefined) return (record) => record.custom[String(customId)] ?? null;
    const compute = field.compute;
    if (compute) return (record) => compute(record, this);
    return (record) => record.fields[field.name] ?? null;
  }

  private optionsOf(source: OptionSource): PseudoOption[] {
    switch (source.kind) {
      case 'fixed':
        return source.options;
      case 'optionGroup': {
        const group = this.findBy('OptionGroup', 'name', source.name);
        return group ? this.optionValues(group.id) : [];
      }
      case 'optionGroupId':
        return this.optionValues(source.id);
      case 'entity':
        return [...this.state.tables[source.table].values()].map((record) => ({
          id: String(record.id),
          name: String(record.fields[source.nameField] ?? ''),
          label: String(record.fields[source.labelField] ?? ''),
        }));
    }
  }

  private optionValues(groupId: number): PseudoOption[] {
    return [...this.state.tables.OptionValue.values()]
      .filter((record) => record.fields['option_group_id'] === groupId)
      .map((record) => ({
        id: String(record.fields['value']),
        name: String(record.fields['name'] ?? ''),
        label: String(record.fields['label'] ?? ''),
      }));
  }

  private findBy(table: TableName, field: string, value: unknown): StoredRecord | undefined {
    for (const record of this.state.tables[table].values()) {
      if (record.fields[field] === value) return record;
    }
    return undefined;
  }

  /**
   * Active custom fields of active groups extending this entity, keyed `Group.Field`. A user
   * without "access all custom data" sees none: dropped from select and values, invalid in where.
   */
  private customFields(def: EntityDef): Map<string, FieldDef> {
    if (!this.hasPermission('access all custom data')) return new Map();
    const cached = this.customCache.get(def.name);
    if (cached) return cached;
    const fields = new Map<string, FieldDef>();
    const extendsList = def.customExtends ?? [];
    for (const group of this.state.tables.CustomGroup.values()) {
      if (!group.fields['is_active'] || !extendsList.includes(String(group.fields['extends']))) continue;
      for (const field of this.state.tables.CustomField.values()) {
        if (field.fields['custom_group_id'] !== group.id || !field.fields['is_active']) continue;
        const key = `${String(group.fields['name'])}.${String(field.fields['name'])}`;
        fields.set(key, customFieldDef(key, field));
      }
    }
    this.customCache.set(def.name, fields);
    return fields;
  }

  private records(def: EntityDef): StoredRecord[] {
    if (def.name === 'RelationshipCache') return this.relationshipCache();
    if (def.name === 'CheckinMiddleware') return [];
    return [...this.state.tables[def.name].values()];
  }

  /** Both orientations of every relationship, so callers need not care about direction. */
  private relationshipCache(): StoredRecord[] {
    const rows: StoredRecord[] = [];
    for (const relationship of this.state.tables.Relationship.values()) {
      const type = this.state.tables.RelationshipType.get(
        Number(relationship.fields['relationship_type_id']),
      );
      const f = relationship.fields;
      const common = {
        relationship_id: relationship.id,
        relationship_type_id: f['relationship_type_id'],
        is_active: f['is_active'],
        start_date: f['start_date'] ?? null,
        end_date: f['end_date'] ?? null,
      };
      const nameAB = type?.fields['name_a_b'] ?? null;
      const nameBA = type?.fields['name_b_a'] ?? null;
      const sides: Array<[number, string, unknown, unknown, unknown, unknown]> = [
        [relationship.id * 2 - 1, 'a_b', f['contact_id_a'], nameAB, f['contact_id_b'], nameBA],
        [relationship.id * 2, 'b_a', f['contact_id_b'], nameBA, f['contact_id_a'], nameAB],
      ];
      for (const [rowId, orientation, near, nearRelation, far, farRelation] of sides) {
        rows.push({
          id: rowId,
          custom: {},
          fields: {
            id: rowId,
            ...common,
            orientation,
            near_contact_id: near,
            near_relation: nearRelation,
            far_contact_id: far,
            far_relation: farRelation,
          },
        });
      }
    }
    return rows;
  }

  // --- where ---------------------------------------------------------------------------------

  private compileWhere(def: EntityDef, where: unknown): Predicate {
    if (where !== undefined && !Array.isArray(where)) fail('where must be an array');
    const clauses = (where as unknown[] | undefined) ?? [];
    const predicates = clauses.map((clause) => this.compileClause(def, clause));
    // Deleted and test records are hidden unless the caller asks about them.
    for (const hidden of def.hiddenByDefault ?? []) {
      if (!mentionsField(clauses, hidden)) predicates.push((record) => record.fields[hidden] !== true);
    }
    return (record) => predicates.every((predicate) => predicate(record));
  }

  private compileClause(def: EntityDef, clause: unknown): Predicate {
    if (!Array.isArray(clause) || typeof clause[0] !== 'string') {
      return fail(`Invalid where clause: ${JSON.stringify(clause)}`);
    }
    const [head, second, value, isExpression] = clause as [string, unknown, unknown, unknown];
    if (head === 'OR' || head === 'AND' || head === 'NOT') {
      if (!Array.isArray(second)) fail(`${head} expects an array of clauses`);
      const inner = (second as unknown[]).map((item) => this.compileClause(def, item));
      if (head === 'OR') return (record) => inner.some((predicate) => predicate(record));
      const all: Predicate = (record) => inner.every((predicate) => predicate(record));
      return head === 'AND' ? all : (record) => !all(record);
    }
    if (typeof second !== 'string' || !(API4_OPERATORS as readonly string[]).includes(second)) {
      return fail(`Illegal operator: ${String(second)}`);
    }
    if (isExpression === true) fail('Field expressions as where values are not supported by this model');
    const field = this.resolve(def, head) ?? fail(`Invalid field '${head}'`);
    const test = operatorTest(second as Operator, value, field);
    return (record) => test(field.get(record));
  }

  // --- orderBy -------------------------------------------------------------------------------

  private compileOrderBy(def: EntityDef, orderBy: unknown): (a: StoredRecord, b: StoredRecord) => number {
    if (Array.isArray(orderBy) && orderBy.length === 0) orderBy = {};
    if (orderBy !== undefined && !isPlainObject(orderBy)) fail('orderBy must be an object');
    const keys = Object.entries((orderBy as Record<string, unknown> | undefined) ?? {}).map(
      ([name, direction]) => {
        if (direction !== 'ASC' && direction !== 'DESC') {
          fail(`Invalid sort direction for ${name}: ${String(direction)} (use ASC or DESC)`);
        }
        const field = this.resolve(def, name) ?? fail(`Invalid field '${name}'`);
        return { field, sign: direction === 'DESC' ? -1 : 1 };
      },
    );
    return (a, b) => {
      for (const { field, sign } of keys) {
        const result = compareForSort(field, field.get(a), field.get(b));
        if (result !== 0) return sign * result;
      }
      // Like MySQL reading the primary key: ties come back in id order.
      return a.id - b.id;
    };
  }

  // --- writes ---------------------------------------------------------------------------------

  private valuesParam(params: Params, name = 'values'): Record<string, unknown> {
    const values = params[name];
    if (values === undefined) return {};
    if (!isPlainObject(values)) return fail(`${name} must be an object keyed by field name`);
    return values;
  }

  private create(def: EntityDef, values: Record<string, unknown>): CrmRow {
    this.assertWritable(def);
    const table = def.name as TableName;
    const record: StoredRecord = { id: 0, fields: {}, custom: {} };
    const refused = this.applyValues(def, record, values);
    this.beforeCreate(def, record, values);
    for (const field of def.fields) {
      if (field.initial && record.fields[field.name] === undefined) {
        record.fields[field.name] = field.initial(this);
      }
    }
    // 6.14's File.create requires a mime type; 5.81 takes a file without one.
    const required = def.name === 'File' && this.is614 ? ['mime_type'] : (def.required ?? []);
    const missing = required.filter((name) => isEmptyValue(record.fields[name]));
    if (missing.length > 0) {
      fail(`Mandatory values missing from Api4 ${def.name}::create: ${missing.join(', ')}`);
    }
    this.placeWeight(def, record, undefined, values['weight'] !== undefined && values['weight'] !== null);
    // CiviCRM saves the row first and inserts custom values after: when MySQL refuses one
    // (a 32-bit Int overflow), the row stays, with no custom values at all.
    if (refused.length > 0) record.custom = {};
    record.id = this.state.nextIds[table]++;
    record.fields['id'] = record.id;
    this.afterCreate(def, record);
    this.state.tables[table].set(record.id, record);
    this.afterWrite(def, record, values);
    if (refused[0] !== undefined) throw new Api4Error(500, refused[0]);
    if (def.name === 'Activity' || def.name === 'File') return this.createAnswer(def, record, values);
    return this.writeResult(def, record, values);
  }

  /** Columns CiviCRM derives from the new id. */
  private afterCreate(def: EntityDef, record: StoredRecord): void {
    const f = record.fields;
    if (def.name === 'CustomGroup' && f['table_name'] === undefined) {
      f['table_name'] =
        `civicrm_value_${munge(String(f['title'] ?? f['name'] ?? ''), 13).toLowerCase()}_${record.id}`;
    }
    if (def.name === 'CustomField' && f['column_name'] === undefined) {
      f['column_name'] = `${munge(String(f['label'] ?? f['name'] ?? ''), 32).toLowerCase()}_${record.id}`;
    }
  }

  /**
   * What Activity.create and File.create answer (measured on 6.14 and 5.81): the columns
   * written, dates as `YYYYMMDDhhmmss`, the database-defaulted timestamps and every other key
   * of `values` (custom fields, virtual fields, unknown names) as null.
   */
  private createAnswer(def: EntityDef, record: StoredRecord, values: Record<string, unknown>): CrmRow {
    const row: CrmRow = { id: record.id };
    const given = new Set(Object.keys(values).map((key) => key.split(':')[0] ?? key));
    const answered = new Set(['id']);
    for (const field of def.fields) {
      if (field.extra || field.compute || field.name === 'id') continue;
      const value = record.fields[field.name];
      const derived =
        def.name === 'Activity'
          ? ['activity_date_time', 'status_id', 'priority_id'].includes(field.name)
          : ['uri', 'upload_date', 'created_id'].includes(field.name);
      if (!given.has(field.name) && !derived) continue;
      const optional = def.name === 'File' && field.name !== 'created_id' && !given.has(field.name);
      if (value === undefined || (optional && value === null)) continue;
      row[field.name] = field.type === 'Timestamp' ? compactTimestamp(value) : value;
      answered.add(field.name);
    }
    if (def.name === 'Activity') {
      row['created_date'] = null;
      row['modified_date'] = null;
      answered.add('created_date').add('modified_date');
    }
    for (const key of Object.keys(values)) {
      const base = key.split(':')[0] ?? key;
      if (answered.has(base) || (key.includes(':') && def.fields.some((field) => field.name === base)))
        continue;
      row[key] = null;
    }
    if (def.name === 'File') {
      if (record.fields[FILE_DECODED] === true) {
        // The extension's answer: the name CiviCRM stored, and proof the content was decoded.
        row['file_name'] = storedFileName(record);
        row['checkin_content_decoded'] = true;
      }
    }
    row['custom'] = null;
    row['check_permissions'] = null;
    return row;
  }

  /**
   * CRM_Utils_Weight::updateOtherWeights for option values and custom fields: a weight past the
   * group's highest lands just after it, a taken weight moves the others along.
   */
  private placeWeight(
    def: EntityDef,
    record: StoredRecord,
    oldWeight: number | undefined,
    given: boolean,
  ): void {
    const groupField =
      def.name === 'OptionValue'
        ? 'option_group_id'
        : def.name === 'CustomField'
          ? 'custom_group_id'
          : undefined;
    if (!groupField) return;
    const siblings = [...this.state.tables[def.name as TableName].values()].filter(
      (other) => other.fields[groupField] === record.fields[groupField],
    );
    const weightOf = (other: StoredRecord) => Math.round(Number(other.fields['weight']) || 0);
    const highest = Math.max(0, ...siblings.map(weightOf));
    if (!given) {
      if (oldWeight === undefined) record.fields['weight'] = highest + 1;
      return;
    }
    // The seed's weights stand as given: an administrator reordered them long ago.
    if (this.seeding) return;
    let weight = Math.trunc(Number(record.fields['weight']) || 0);
    const max = highest || 1;
    if (weight > max) {
      const calculated = newWeight(siblings.map(weightOf));
      if (calculated > max) {
        record.fields['weight'] = calculated;
        return;
      }
      weight = max;
      if (oldWeight === undefined) {
        record.fields['weight'] = weight + 1;
        return;
      }
    } else if (weight < 1) {
      weight = 1;
    }
    record.fields['weight'] = weight;
    if (oldWeight === weight || !siblings.some((other) => weightOf(other) === weight)) return;
    for (const other of siblings) {
      const current = weightOf(other);
      if (oldWeight === undefined) {
        if (current >= weight) other.fields['weight'] = current + 1;
      } else if (weight > oldWeight) {
        if (current > oldWeight && current <= weight) other.fields['weight'] = current - 1;
      } else if (current >= weight && current < oldWeight) {
        other.fields['weight'] = current + 1;
      }
    }
  }

  private update(def: EntityDef, params: Params): CrmRow[] {
    this.assertWritable(def);
    this.requireWhere(def, 'update', params);
    const values = this.valuesParam(params);
    return this.query(def, params).map((record) => {
      const draft: StoredRecord = structuredClone(record);
      const refused = this.applyValues(def, draft, values);
      if (refused[0] !== undefined) throw new Api4Error(500, refused[0]);
      if ('modified_date' in draft.fields) draft.fields['modified_date'] = this.localNow();
      const weightGiven = values['weight'] !== undefined && values['weight'] !== null;
      if (weightGiven) this.placeWeight(def, draft, Math.round(Number(record.fields['weight']) || 0), true);
      const replacedFiles = this.is614 ? this.replacedFiles(def, record, draft) : [];
      // Only commit once every value was accepted: a failed update changes nothing.
      Object.assign(record, draft);
      // Since 6.4, a file a File field no longer holds is deleted unless something else holds it.
      for (const fileId of replacedFiles) {
        if (!this.fileOwner(fileId)) this.state.tables.File.delete(fileId);
      }
      this.afterWrite(def, record, values);
      return this.writeResult(def, record, values);
    });
  }

  private delete(def: EntityDef, params: Params): CrmRow[] {
    this.assertWritable(def);
    this.requireWhere(def, 'delete', params);
    const useTrash = params['useTrash'] !== false;
    return this.query(def, params).map((record) => {
      if (def.name === 'Contact' && useTrash) {
        record.fields['is_deleted'] = true;
      } else {
        this.state.tables[def.name as TableName].delete(record.id);
      }
      this.afterWrite(def, record, {});
      return { id: record.id };
    });
  }

  /** Upsert: a record with `id` (or matching `match` fields) is updated, others created. */
  private save(def: EntityDef, params: Params): CrmRow[] {
    const records = params['records'];
    if (!Array.isArray(records)) return fail('records must be an array');
    const defaults = this.valuesParam(params, 'defaults');
    const match = params['match'];
    if (match !== undefined && (!Array.isArray(match) || match.some((key) => typeof key !== 'string'))) {
      fail('match must be an array of field names');
    }
    return records.map((item) => {
      if (!isPlainObject(item)) return fail('Each record must be an object');
      const values = { ...defaults, ...item };
      const where = this.saveTarget(def, values, (match as string[] | undefined) ?? []);
      if (!where) return this.create(def, values);
      const rest = { ...values };
      delete rest['id'];
      const updated = this.update(def, { where, values: rest });
      return updated[0] ?? this.create(def, values);
    });
  }

  private saveTarget(
    def: EntityDef,
    values: Record<string, unknown>,
    match: string[],
  ): unknown[] | undefined {
    if (values['id'] !== undefined && values['id'] !== null) return [['id', '=', values['id']]];
    if (match.length === 0) return undefined;
    const where = match.map((key) => [key, '=', values[key]]);
    return this.query(def, { where, limit: 1 }).length > 0 ? where : undefined;
  }

  private assertWritable(def: EntityDef): void {
    if (def.name === 'RelationshipCache' || def.name === 'CheckinMiddleware')
      fail(`${def.name} is read-only`);
  }

  private requireWhere(def: EntityDef, action: string, params: Params): void {
    const where = params['where'];
    if (!Array.isArray(where) || where.length === 0) {
      fail(`Cannot ${action} ${def.name} with no "where" parameter specified`);
    }
  }

  /**
   * Validates and stores `values` on a record; unknown keys, custom ones included, are ignored
   * as in CiviCRM. Returns why custom values were refused (a type error, a 32-bit Int overflow
   * MySQL refuses): the caller decides what was saved before the refusal.
   */
  private applyValues(def: EntityDef, record: StoredRecord, values: Record<string, unknown>): string[] {
    const customs = this.customFields(def);
    const refused: string[] = [];
    for (const [key, raw] of Object.entries(values)) {
      if (key === 'id' || (def.name === 'Contact' && key === 'email_primary.email')) continue;
      const colon = key.lastIndexOf(':');
      const path = colon >= 0 ? key.slice(0, colon) : key;
      const suffix = colon >= 0 ? key.slice(colon + 1) : undefined;
      const custom = customs.get(path);
      const field = custom ?? def.fields.find((candidate) => candidate.name === path);
      if (!field || field.readOnly || field.compute) continue;
      const value = suffix === undefined ? raw : this.optionInput(field, suffix, raw, key);
      let stored: unknown;
      try {
        stored = this.coerce(field, value, key);
      } catch (error) {
        // Custom values are checked when they are inserted, after the row: the caller decides.
        if (!custom || !(error instanceof Api4Error)) throw error;
        refused.push(error.message);
        continue;
      }
      if (custom && field.type === 'Int' && asArray(stored).some((item) => !isInt32(item))) {
        refused.push(DB_ERROR);
        continue;
      }
      // Custom option values are not checked: CiviCRM stores an unknown option as sent.
      if (!custom || field.type === 'File') this.checkReferences(field, stored, key);
      if (custom?.customFieldId !== undefined) record.custom[String(custom.customFieldId)] = stored;
      else record.fields[field.name] = stored;
      if (custom && field.type === 'File' && !this.is614) this.markAttached(stored);
    }
    return refused;
  }

  /** `field:name` / `field:label` in values: the option's stored value. */
  private optionInput(field: FieldDef, suffix: string, raw: unknown, key: string): unknown {
    if ((suffix !== 'name' && suffix !== 'label') || !field.options) {
      return fail(`Unknown field "${key}"`);
    }
    const options = this.optionsOf(field.options);
    const lookup = (item: unknown) =>
      options.find((option) => option[suffix] === item)?.id ??
      fail(`'${String(item)}' is not a valid option ${suffix} for ${key}`);
    if (raw === null || raw === undefined || raw === '') return null;
    return Array.isArray(raw) ? raw.map(lookup) : lookup(raw);
  }

  private coerce(field: FieldDef, raw: unknown, key: string): unknown {
    if (raw === null || raw === undefined) return null;
    if (field.serialize) {
      const list: unknown[] = Array.isArray(raw) ? raw : raw === '' ? [] : [raw];
      return list.map((item) => this.coerceScalar(field, item, key)).filter((item) => item !== null);
    }
    if (typeof raw === 'object') return fail(`Expected a single value for ${key}`);
    return this.coerceScalar(field, raw, key);
  }

  private coerceScalar(field: FieldDef, value: unknown, key: string): unknown {
    if (value === null || value === '') return null;
    if (typeof value === 'object') return fail(`Expected a scalar value for ${key}`);
    const text = String(value).trim();
    // CRM_Utils_Type::validate's message, with the type names measured (a word given to an Int
    // field is reported as not a Timestamp).
    const parameters = this.is614 ? 'the parameters' : 'parameters';
    const invalid = (type: string) =>
      fail(`One of ${parameters}  (value: ${String(value)}) is not of the type ${type}`);
    switch (field.type) {
      case 'Int':
      case 'File':
        if (typeof value === 'boolean') return value ? 1 : 0;
        if (/^-?\d+$/.test(text)) return Number(text);
        return invalid(/^-?\d*\.\d+$/.test(text) ? 'Integer' : 'Timestamp');
      case 'Float':
        if (typeof value === 'boolean' || !/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text))
          return invalid('Float');
        // A DOUBLE that PHP reads back with 14 significant digits.
        return phpFloat(Number(text));
      case 'Money':
        // DECIMAL(20,2); CiviCRM refuses an exponent.
        if (typeof value === 'boolean' || !/^-?(\d+\.?\d*|\.\d+)$/.test(text)) return invalid('Money');
        return roundMoney(text);
      case 'Boolean':
        if (value === true || text === '1' || text.toLowerCase() === 'true') return true;
        if (value === false || text === '0' || text.toLowerCase() === 'false') return false;
        // Anything else is stored as nothing.
        return null;
      case 'Date':
      case 'Timestamp':
        return writtenDate(text, field.type === 'Timestamp', this.now(), this.timeZone);
      case 'String':
      case 'Memo':
        return String(value);
    }
  }

  /** File ids the draft's File custom fields no longer hold. */
  private replacedFiles(def: EntityDef, record: StoredRecord, draft: StoredRecord): number[] {
    const replaced: number[] = [];
    for (const field of this.customFields(def).values()) {
      if (field.type !== 'File' || field.customFieldId === undefined) continue;
      const key = String(field.customFieldId);
      const kept = new Set(asArray(draft.custom[key]).map(Number));
      for (const fileId of asArray(record.custom[key]).map(Number))
        if (!kept.has(fileId)) replaced.push(fileId);
    }
    return replaced;
  }

  /**
   * 5.81 rewrites a file when it becomes a custom value: a file without a name gets an empty uri
   * (so it reads back as `""`, not null) and an upload date.
   */
  private markAttached(stored: unknown): void {
    for (const fileId of asArray(stored)) {
      const file = this.state.tables.File.get(Number(fileId));
      if (!file) continue;
      file.fields['uri'] ??= '';
      file.fields['upload_date'] ??= this.localNow();
    }
  }

  /** Option values and foreign keys must exist, as CiviCRM's validation and constraints demand. */
  private checkReferences(field: FieldDef, stored: unknown, key: string): void {
    if (stored === null) return;
    const items = Array.isArray(stored) ? stored : [stored];
    if (field.fk) {
      const table = this.state.tables[field.fk];
      for (const item of items) {
        if (!table.has(Number(item))) fail(`${key}: no ${field.fk} with id ${String(item)}`);
      }
    } else if (field.options) {
      const allowed = new Set(this.optionsOf(field.options).map((option) => option.id));
      for (const item of items) {
        if (!allowed.has(String(item))) fail(`'${String(item)}' is not a valid option for ${key}`);
      }
    }
  }

  /** Defaults CiviCRM derives on create (names from labels, next option value...). */
  private beforeCreate(def: EntityDef, record: StoredRecord, values: Record<string, unknown>): void {
    const f = record.fields;
    const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
    switch (def.name) {
      case 'CustomGroup': {
        // CustomGroup.create munges a given name too: `A__b` is stored as `A_b`. The seed
        // stands for a site set up long ago, whose names predate that.
        const name = text(f['name']);
        const source = name ?? text(f['title']);
        if (!(this.seeding && name) && source !== undefined) f['name'] = munge(source, 63);
        break;
      }
      case 'CustomField': {
        const label = text(f['label']);
        if (text(f['name']) === undefined && label !== undefined) f['name'] = munge(label, 64);
        break;
      }
      case 'OptionGroup': {
        const title = text(f['title']);
        // A derived name leaves room for a uniqueness suffix (CRM_Core_DAO::makeNameFromLabel).
        if (text(f['name']) === undefined && title !== undefined) f['name'] = munge(title, 59);
        f['title'] ??= f['name'];
        break;
      }
      case 'OptionValue':
        this.optionValueDefaults(f);
        break;
      case 'RelationshipType':
        f['label_a_b'] ??= f['name_a_b'];
        f['name_b_a'] ??= f['name_a_b'];
        f['label_b_a'] ??= f['name_b_a'];
        break;
      case 'File':
        this.storeFile(record, values);
        break;
      case 'Contact':
      case 'Email':
      case 'Activity':
      case 'Relationship':
      case 'RelationshipCache':
      case 'CheckinMiddleware':
        break;
    }
  }

  private optionValueDefaults(f: Record<string, unknown>): void {
    const siblings = [...this.state.tables.OptionValue.values()].filter(
      (record) => record.fields['option_group_id'] === f['option_group_id'],
    );
    const numeric = siblings.map((record) => Number(record.fields['value'])).filter(Number.isFinite);
    f['value'] ??= String(Math.max(0, ...numeric) + 1);
    f['name'] ??= typeof f['label'] === 'string' ? munge(f['label'], 59) : f['label'];
  }

  /**
   * File.create as each release does it. 6.14 names the file on disk after `file_name` and
   * writes `content` as sent (base64 stays base64 text); 5.81 knows neither field, so the row
   * has no uri and no bytes. With the extension installed and the service's marker
   * (`contentEncoding: 'base64'`), the content is decoded first, on both. The seed stands for
   * files already on disk: its base64 content is decoded.
   */
  private storeFile(record: StoredRecord, values: Record<string, unknown>): void {
    if (values['uri'] !== undefined) fail('Setting file URI is not permitted. Use file_name instead.');
    record.fields['created_id'] = this.context.user.contactId;
    const marked = this.context.contentEncoding?.toLowerCase() === 'base64';
    const decode = (this.extensionInstalled && marked) || this.seeding;
    if (!this.is614 && !decode) {
      record.fields['uri'] = null;
      record.fields['upload_date'] ??= null;
      return;
    }
    const fileName = values['file_name'];
    if (typeof fileName === 'string' && fileName !== '') {
      if (/[/\\]/.test(fileName)) fail('Malformed name');
      record.fields['uri'] = makeFileName(fileName, randomBytes(16).toString('hex'));
    } else {
      record.fields['uri'] = null;
    }
    record.fields['upload_date'] ??= this.localNow();
    const content = values['content'];
    if (content === undefined || content === null || content === '') return;
    const text = typeof content === 'string' ? content : JSON.stringify(content);
    if (decode) {
      const valid = /^[A-Za-z0-9+/]*={0,2}$/.test(text) && text.length % 4 === 0;
      if (!valid && !this.seeding) fail('File content is not valid base64');
      record.fields[FILE_BYTES] = new Uint8Array(valid ? Buffer.from(text, 'base64') : Buffer.from(text));
      if (marked) record.fields[FILE_DECODED] = true;
    } else if (record.fields['uri']) {
      // Without a name there is no path to write to: CiviCRM stores no bytes.
      record.fields[FILE_BYTES] = new Uint8Array(Buffer.from(text, 'utf8'));
    }
  }

  private afterWrite(def: EntityDef, record: StoredRecord, values: Record<string, unknown>): void {
    if (def.name === 'CustomGroup' || def.name === 'CustomField') this.customCache.clear();
    if (def.name === 'Contact') {
      this.contactNames(record, values);
      if (values['email_primary.email'] !== undefined)
        this.writePrimaryEmail(record, values['email_primary.email']);
    }
    if (def.name === 'Email' && this.state.tables.Email.has(record.id)) this.linkPrimaryEmail(record);
  }

  private contactNames(record: StoredRecord, values: Record<string, unknown>): void {
    const f = record.fields;
    const first = typeof f['first_name'] === 'string' ? f['first_name'] : '';
    const last = typeof f['last_name'] === 'string' ? f['last_name'] : '';
    const isPerson = f['contact_type'] === 'Individual';
    if (values['display_name'] === undefined) {
      f['display_name'] = isPerson
        ? `${first} ${last}`.trim()
        : (f['organization_name'] ?? f['display_name'] ?? null);
    }
    if (values['sort_name'] === undefined) {
      f['sort_name'] = isPerson ? [last, first].filter(Boolean).join(', ') : f['display_name'];
    }
  }

  private writePrimaryEmail(contact: StoredRecord, email: unknown): void {
    const text = this.coerceScalar({ name: 'email', type: 'String' }, email, 'email_primary.email');
    const existing = this.state.tables.Email.get(Number(contact.fields['email_primary']));
    if (existing) {
      existing.fields['email'] = text;
      return;
    }
    if (text === null) return;
    this.create(ENTITIES.Email, { contact_id: contact.id, email: text, is_primary: true });
  }

  private linkPrimaryEmail(email: StoredRecord): void {
    const contact = this.state.tables.Contact.get(Number(email.fields['contact_id']));
    if (!contact) return;
    if (email.fields['is_primary'] === true || contact.fields['email_primary'] == null) {
      contact.fields['email_primary'] = email.id;
      email.fields['is_primary'] = true;
    }
  }

  /** What create/update answer: the record's columns plus every key that was written. */
  private writeResult(def: EntityDef, record: StoredRecord, values: Record<string, unknown>): CrmRow {
    const row: CrmRow = {};
    for (const field of def.fields) {
      if (!field.compute) row[field.name] = record.fields[field.name] ?? null;
    }
    for (const key of Object.keys(values)) {
      if (key in row) continue;
      const resolved = this.resolve(def, key);
      row[key] = resolved ? resolved.get(record) : values[key];
    }
    return row;
  }

  // --- checksums --------------------------------------------------------------------------------

  private contactIdParam(value: unknown): number {
    if (typeof value === 'number' && Number.isInteger(value)) return value;
    if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
    return fail('Mandatory parameter missing or invalid: contactId');
  }

  private getChecksum(contactIdValue: unknown, ttlValue: unknown): CrmRow {
    const contactId = this.contactIdParam(contactIdValue);
    if (!this.state.tables.Contact.has(contactId)) fail(`Contact ${contactId} not found`);
    const ttl = ttlValue === undefined || ttlValue === null ? DEFAULT_CHECKSUM_TTL_HOURS : ttlValue;
    if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 0) {
      fail('ttl must be a non-negative whole number of hours');
    }
    const live = ttl === 0 ? 'inf' : String(ttl);
    const timestamp = Math.floor(this.now().getTime() / 1000);
    return { id: contactId, checksum: this.sign(`contact:${contactId}`, timestamp, live) };
  }

  private validateChecksum(contactIdValue: unknown, checksum: unknown): boolean {
    const contactId = this.contactIdParam(contactIdValue);
    if (typeof checksum !== 'string') return fail('Mandatory parameter missing: checksum');
    if (!this.state.tables.Contact.has(contactId)) return false;
    const fixed = this.state.fixedChecksums.get(contactId) ?? [];
    if (fixed.some((candidate) => safeEqual(candidate, checksum))) return true;
    return this.verifySignature(`contact:${contactId}`, checksum);
  }

  /** `{md5hex}_{unixTs}_{hours|inf}`, the shape CiviCRM's checksums have. */
  private sign(subject: string, timestamp: number, live: string): string {
    const hash = md5(`${this.state.secret}|${subject}|${timestamp}|${live}`);
    return `${hash}_${timestamp}_${live}`;
  }

  private verifySignature(subject: string, signature: string): boolean {
    const match = /^([0-9a-f]{32})_(\d+)_(\d+|inf)$/.exec(signature);
    if (!match) return false;
    const [, , timestampText = '', live = ''] = match;
    const timestamp = Number(timestampText);
    if (!safeEqual(this.sign(subject, timestamp, live), signature)) return false;
    if (live === 'inf') return true;
    return this.now().getTime() / 1000 <= timestamp + Number(live) * 3600;
  }

  // --- APIv3 -----------------------------------------------------------------------------------

  /**
   * One APIv3 call as civicrm/ajax/rest answers it: an envelope, errors included, except where
   * CiviCRM itself dies (Attachment.get with several ids): that throws Api4Error 500, which the
   * emulator answers as the release's error page.
   */
  api3(entity: string, action: string, params: unknown = {}, context: CallContext = {}): V3Envelope {
    const previous = this.context;
    this.context = { ...context, user: context.user ?? ADMIN_USER };
    try {
      const input = jsonCopy(params);
      if (!isPlainObject(input)) return v3Error('Input variable `params` is not an array');
      if (entity.toLowerCase() !== 'attachment' || action.toLowerCase() !== 'get') {
        return v3Error(`API (${entity}, ${action}) does not exist (join the API team and implement it!)`);
      }
      if (!this.hasPermission(ACCESS) || !this.hasPermission('access AJAX API')) {
        return v3Error('API permission check failed for Attachment/get call; insufficient permission');
      }
      return jsonCopy(this.attachmentGet(input));
    } catch (error) {
      if (error instanceof Api4Error && !(error instanceof CrmFatalError)) return v3Error(error.message);
      throw error;
    } finally {
      this.context = previous;
    }
  }

  private attachmentGet(params: Record<string, unknown>): V3Envelope {
    const idParam = params['id'];
    if (isPlainObject(idParam) || Array.isArray(idParam)) {
      // Attachment.get hands the id to htmlentities(): a PHP fatal error, an HTTP 500 page.
      throw new CrmFatalError('htmlentities(): Argument #1 ($string) must be of type string, array given');
    }
    const ids = v3Ids(idParam);
    if (ids === undefined)
      return v3Error("Mandatory key(s) missing from params array: 'id' or 'entity_table'");
    const returned = params['return'];
    if (returned !== undefined && typeof returned !== 'string') {
      // PHP's explode() on a non-string: CiviCRM answers with the TypeError's message.
      return v3Error(`explode(): Argument #2 ($string) must be of type string, ${phpType(returned)} given`);
    }
    const rows: V3Row[] = [];
    for (const fileId of ids) {
      const record = this.state.tables.File.get(fileId);
      if (!record) continue;
      // The permission check looks for the record the file hangs from.
      const owner = this.fileOwner(fileId);
      if (!owner) {
        return v3Error(
          this.is614
            ? 'Failed to lookup entity table for custom field.'
            : 'Failed to match record to related entity',
        );
      }
      rows.push(this.attachmentRow(record, owner));
    }
    const flag = params['sequential'];
    const sequential = flag === 1 || flag === '1' || flag === true;
    const values = sequential ? rows : Object.fromEntries(rows.map((row) => [row['id'], row]));
    const single = rows.length === 1 ? { id: Number(rows[0]?.['id']) } : {};
    return { is_error: 0, version: 3, count: rows.length, values, ...single };
  }

  /** The custom-field row a file is the value of, if any (what Attachment calls its entity). */
  private fileOwner(fileId: number): { table: string; entityId: number } | undefined {
    for (const field of this.state.tables.CustomField.values()) {
      if (field.fields['data_type'] !== 'File') continue;
      const group = this.state.tables.CustomGroup.get(Number(field.fields['custom_group_id']));
      if (!group) continue;
      for (const def of Object.values(ENTITIES)) {
        if (!def.customExtends?.includes(String(group.fields['extends']))) continue;
        for (const record of this.records(def)) {
          if (asArray(record.custom[String(field.id)]).some((value) => Number(value) === fileId)) {
            return { table: String(group.fields['table_name'] ?? ''), entityId: record.id };
          }
        }
      }
    }
    return undefined;
  }

  /** Every column, whatever `return` asks for (Attachment.get ignores it). */
  private attachmentRow(record: StoredRecord, owner: { table: string; entityId: number }): V3Row {
    const f = record.fields;
    return {
      id: String(record.id),
      name: storedFileName(record) ?? '',
      mime_type: String(f['mime_type'] ?? ''),
      description: String(f['description'] ?? ''),
      upload_date: String(f['upload_date'] ?? ''),
      // 6.14 reports no entity for a file in a custom field; 5.81 names the value table.
      entity_table: this.is614 ? '' : owner.table,
      entity_id: this.is614 ? '' : String(owner.entityId),
      icon: fileIcon(String(f['mime_type'] ?? '')),
      created_id: f['created_id'] === null || f['created_id'] === undefined ? '' : String(f['created_id']),
      url: this.fileUrl(record.id, owner.entityId),
    };
  }

  // --- files -----------------------------------------------------------------------------------

  /**
   * The absolute signed address APIv3 Attachment.get answers: 6.14 signs with a JWT
   * (`{"exp":…,"civi.file":"N"}`, HS256); 5.81 with `<sha256>_<time>_<hours>` bound to the
   * record the file hangs from (`eid`).
   */
  fileUrl(fileId: number, entityId?: number | null): string {
    if (this.is614) {
      return `${this.baseUrl}/civicrm/file?reset=1&id=${fileId}&fcs=${this.fileToken(String(fileId))}`;
    }
    const eid = entityId ?? '';
    return `${this.baseUrl}/civicrm/file?reset=1&id=${fileId}&eid=${eid}&fcs=${this.legacyFileHash(fileId, eid)}`;
  }

  /**
   * APIv4's File `url`: on 6.14 a site-relative signed address (no scheme or host, as
   * measured); 5.81 has none for a file on its own, and the absolute 5.81 form for a file
   * reached through an explicit join (it names the row it hangs from).
   */
  api4FileUrl(fileId: number, joinedFrom?: unknown): string | null {
    if (!this.is614) return typeof joinedFrom === 'number' ? this.fileUrl(fileId, joinedFrom) : null;
    const basePath = new URL(this.baseUrl).pathname.replace(/\/+$/, '');
    return `${basePath}/civicrm/file?reset=1&id=${fileId}&fcs=${this.fileToken(fileId)}`;
  }

  /** Whether `fcs` is a signature this CRM issued for the file and it has not expired. */
  verifyFileSignature(fileId: number, fcs: string, entityId?: string | null): boolean {
    const legacy = /^([0-9a-f]{64})_(\d+)_(\d+)$/.exec(fcs);
    if (legacy) {
      const [, , time = '0', hours = '0'] = legacy;
      const expected = this.legacyFileHash(fileId, entityId ?? '', Number(time), Number(hours));
      return safeEqual(expected, fcs) && this.now().getTime() / 1000 <= Number(time) + Number(hours) * 3600;
    }
    const parts = fcs.split('.');
    if (parts.length !== 3) return false;
    const [header = '', payload = '', signature = ''] = parts;
    if (!safeEqual(this.hs256(`${header}.${payload}`), signature)) return false;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      const expires = Number(claims['exp']);
      return String(claims['civi.file']) === String(fileId) && this.now().getTime() / 1000 <= expires;
    } catch {
      return false;
    }
  }

  /** CRM_Core_BAO_File::generateFileHash on 6.14: valid for checksum_timeout (7 days). */
  private fileToken(fileId: number | string): string {
    const header = base64Url(JSON.stringify({ typ: 'JWT', alg: 'HS256', kid: this.keyId() }));
    const expires = Math.floor(this.now().getTime() / 1000) + DEFAULT_CHECKSUM_TTL_HOURS * 3600;
    const payload = base64Url(JSON.stringify({ exp: expires, 'civi.file': fileId }));
    return `${header}.${payload}.${this.hs256(`${header}.${payload}`)}`;
  }

  private legacyFileHash(
    fileId: number,
    entityId: number | string,
    time = Math.floor(this.now().getTime() / 1000),
    hours = DEFAULT_CHECKSUM_TTL_HOURS,
  ): string {
    const hash = createHash('sha256')
      .update(`${this.state.secret}|${String(entityId)}|${fileId}|${time}|${hours}`)
      .digest('hex');
    return `${hash}_${time}_${hours}`;
  }

  private hs256(input: string): string {
    return createHmac('sha256', this.state.secret).update(input).digest('base64url');
  }

  private keyId(): string {
    return createHash('sha1').update(this.state.secret).digest('base64url').slice(0, 27);
  }

  getFile(fileId: number): StoredFile | undefined {
    const record = this.state.tables.File.get(fileId);
    if (!record) return undefined;
    const bytes = fileBytes(record);
    return {
      id: record.id,
      file_name: storedFileName(record),
      uri: (record.fields['uri'] as string | null | undefined) ?? null,
      mime_type: (record.fields['mime_type'] as string | null | undefined) ?? null,
      upload_date: (record.fields['upload_date'] as string | null | undefined) ?? null,
      size: bytes.byteLength,
      content: bytes,
    };
  }

  // --- seeding and state -------------------------------------------------------------------------

  /** Makes every later checksum check for this contact also accept `checksum` as given. */
  setFixedChecksum(contactId: number, checksum: string): void {
    const list = this.state.fixedChecksums.get(contactId) ?? [];
    this.state.fixedChecksums.set(contactId, [...list, checksum]);
  }

  /** The id the next created record of `entity` gets (seeds use it for memorable ids). */
  setNextId(entity: EntityName, next: number): void {
    if (entity === 'RelationshipCache') fail('RelationshipCache has no ids of its own');
    const table = entity as TableName;
    const highest = Math.max(0, ...this.state.tables[table].keys());
    if (next <= highest) fail(`${entity} ids up to ${highest} are taken`);
    this.state.nextIds[table] = next;
  }

  /** Number of stored records, deleted ones included. */
  count(entity: EntityName): number {
    if (entity === 'CheckinMiddleware') return 0;
    return entity === 'RelationshipCache' ? this.relationshipCache().length : this.state.tables[entity].size;
  }

  snapshot(): ModelSnapshot {
    return { state: structuredClone(this.state) };
  }

  restore(snapshot: ModelSnapshot): void {
    this.state = structuredClone(snapshot.state as ModelState);
    this.customCache.clear();
  }

  /** Back to the state right after seeding. */
  reset(): void {
    this.restore(this.seeded);
  }

  /** What a fresh CiviCRM holds before anyone configures it. */
  private seedStock(): void {
    const group = (name: string, title: string, values: Array<[number, string]>) => {
      const created = this.api4('OptionGroup', 'create', { values: { name, title, is_reserved: true } })[0];
      for (const [value, label] of values) {
        this.api4('OptionValue', 'create', {
          values: {
            option_group_id: created?.['id'],
            value: String(value),
            name: label,
            label,
            weight: value,
          },
        });
      }
    };
    group('activity_type', 'Activity Type', [
      [1, 'Meeting'],
      [2, 'Phone Call'],
      [3, 'Email'],
      [4, 'Outbound SMS'],
      [14, 'Follow up'],
    ]);
    group('activity_status', 'Activity Status', [
      [1, 'Scheduled'],
      [2, 'Completed'],
      [3, 'Cancelled'],
      [4, 'Left Message'],
    ]);
    const stockTypes: Array<[string, string, string, string]> = [
      ['Child of', 'Parent of', 'Individual', 'Individual'],
      ['Spouse of', 'Spouse of', 'Individual', 'Individual'],
      ['Sibling of', 'Sibling of', 'Individual', 'Individual'],
      ['Employee of', 'Employer of', 'Individual', 'Organization'],
      ['Volunteer for', 'Volunteer is', 'Individual', 'Organization'],
    ];
    for (const [nameAB, nameBA, typeA, typeB] of stockTypes) {
      this.api4('RelationshipType', 'create', {
        values: {
          name_a_b: nameAB,
          name_b_a: nameBA,
          contact_type_a: typeA,
          contact_type_b: typeB,
          is_reserved: true,
        },
      });
    }
    this.api4('Contact', 'create', {
      values: { contact_type: 'Organization', organization_name: 'Default Organization' },
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Module helpers

function emptyState(secret: string): ModelState {
  const tables = {} as Record<TableName, Map<number, StoredRecord>>;
  const nextIds = {} as Record<TableName, number>;
  for (const name of TABLE_NAMES) {
    tables[name] = new Map();
    nextIds[name] = 1;
  }
  return { tables, nextIds, fixedChecksums: new Map(), secret };
}

function customFieldDef(key: string, record: StoredRecord): FieldDef {
  const f = record.fields;
  const dataType = String(f['data_type']) as CrmDataType;
  const optionGroupId = f['option_group_id'];
  const dateOnly = dataType === 'Date';
  return {
    name: key,
    type: dateOnly ? 'Date' : dataType,
    customFieldId: record.id,
    ...(Number(f['serialize']) > 0 ? { serialize: true } : {}),
    ...(dataType === 'File' ? { fk: 'File' as const } : {}),
    ...(typeof optionGroupId === 'number'
      ? { options: { kind: 'optionGroupId' as const, id: optionGroupId } }
      : {}),
  };
}

function mentionsField(clauses: unknown[], field: string): boolean {
  return clauses.some((clause) => {
    if (!Array.isArray(clause)) return false;
    const [head, second] = clause as [unknown, unknown];
    if ((head === 'OR' || head === 'AND' || head === 'NOT') && Array.isArray(second)) {
      return mentionsField(second, field);
    }
    return typeof head === 'string' && head.split(':')[0] === field;
  });
}

function operatorTest(
  operator: Operator,
  value: unknown,
  field: ResolvedField,
): (actual: unknown) => boolean {
  const cs = field.pseudo;
  const norm = (item: unknown) => comparable(field, item);
  const equal = (actual: unknown, expected: unknown) =>
    actual !== null && expected !== null && compareComparable(norm(actual), norm(expected), cs) === 0;
  const anyOf = (actual: unknown, test: (item: unknown) => boolean) =>
    Array.isArray(actual) ? actual.some(test) : test(actual);
  const present = (actual: unknown) => actual !== null && actual !== undefined;
  const relational = (test: (order: number) => boolean) => (actual: unknown) =>
    present(actual) &&
    present(value) &&
    !Array.isArray(actual) &&
    test(compareComparable(norm(actual), norm(value), cs));

  switch (operator) {
    case '=':
      return (actual) => present(actual) && anyOf(actual, (item) => equal(item, value));
    case '!=':
    case '<>':
      return (actual) => present(actual) && !anyOf(actual, (item) => equal(item, value));
    case '>':
      return relational((order) => order > 0);
    case '>=':
      return relational((order) => order >= 0);
    case '<':
      return relational((order) => order < 0);
    case '<=':
      return relational((order) => order <= 0);
    case 'IN':
    case 'NOT IN': {
      const list: unknown[] = Array.isArray(value) ? value : fail(`${operator} expects an array value`);
      const isIn = (actual: unknown) =>
        anyOf(actual, (item) => list.some((candidate) => equal(item, candidate)));
      return operator === 'IN'
        ? (actual) => present(actual) && isIn(actual)
        : (actual) => present(actual) && !isIn(actual);
    }
    case 'LIKE':
    case 'NOT LIKE': {
      if (typeof value !== 'string' && typeof value !== 'number') fail(`${operator} expects a string value`);
      const regex = likeRegex(String(value), cs);
      const isLike = (actual: unknown) => anyOf(actual, (item) => regex.test(String(item)));
      return operator === 'LIKE'
        ? (actual) => present(actual) && isLike(actual)
        : (actual) => present(actual) && !isLike(actual);
    }
    case 'CONTAINS':
    case 'NOT CONTAINS': {
      const contains = (actual: unknown) => containsValue(actual, value, field);
      return operator === 'CONTAINS'
        ? (actual) => present(actual) && contains(actual)
        : (actual) => present(actual) && !contains(actual);
    }
    case 'IS EMPTY':
      return isEmptyValue;
    case 'IS NOT EMPTY':
      return (actual) => !isEmptyValue(actual);
    case 'IS NULL':
      return (actual) => !present(actual);
    case 'IS NOT NULL':
      return present;
    case 'BETWEEN': {
      if (!Array.isArray(value) || value.length !== 2) fail('BETWEEN expects an array of two values');
      const [low, high] = value as [unknown, unknown];
      return (actual) =>
        present(actual) &&
        !Array.isArray(actual) &&
        compareComparable(norm(actual), norm(low), cs) >= 0 &&
        compareComparable(norm(actual), norm(high), cs) <= 0;
    }
  }
}

/** CONTAINS: membership for arrays (every given value), substring for strings. */
function containsValue(actual: unknown, value: unknown, field: ResolvedField): boolean {
  const wanted = Array.isArray(value) ? value : [value];
  if (Array.isArray(actual)) {
    return wanted.every((item) =>
      actual.some(
        (element) =>
          compareComparable(comparable(field, element), comparable(field, item), field.pseudo) === 0,
      ),
    );
  }
  const text = field.pseudo ? String(actual) : String(actual).toLowerCase();
  return wanted.every((item) => text.includes(field.pseudo ? String(item) : String(item).toLowerCase()));
}

/** orderBy: NULL sorts first ascending, as in MySQL. */
function compareForSort(field: ResolvedField, a: unknown, b: unknown): number {
  const aNull = a === null || a === undefined;
  const bNull = b === null || b === undefined;
  if (aNull || bNull) return aNull === bNull ? 0 : aNull ? -1 : 1;
  return compareComparable(comparable(field, a), comparable(field, b), field.pseudo);
}

function v3Ids(value: unknown): number[] | undefined {
  const asId = (item: unknown) => {
    const number = typeof item === 'string' && /^\d+$/.test(item) ? Number(item) : item;
    return typeof number === 'number' && Number.isInteger(number)
      ? number
      : fail(`Invalid id: ${String(item)}`);
  };
  if (value === undefined || value === null || value === '') return undefined;
  if (isPlainObject(value)) {
    const list = value['IN'] ?? (value['='] === undefined ? undefined : [value['=']]);
    if (!Array.isArray(list)) return fail('id: only IN and = are supported');
    return list.map(asId);
  }
  if (Array.isArray(value)) return fail('id: use {"IN": [...]} for several ids');
  return [asId(value)];
}

/** CRM_Utils_File::getIconFromMimeType, for the types uploads have. */
function fileIcon(mimeType: string): string {
  if (mimeType === 'application/pdf') return 'fa-file-pdf-o';
  if (mimeType.startsWith('image/')) return 'fa-file-image-o';
  if (mimeType.startsWith('text/')) return 'fa-file-text-o';
  if (/word|opendocument\.text/.test(mimeType)) return 'fa-file-word-o';
  if (/excel|spreadsheet/.test(mimeType)) return 'fa-file-excel-o';
  return 'fa-file-o';
}

function phpType(value: unknown): string {
  if (Array.isArray(value) || isPlainObject(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'boolean') return 'bool';
  return value === null ? 'null' : typeof value;
}

function v3Error(message: string): V3Envelope {
  return { is_error: 1, error_message: message };
}
