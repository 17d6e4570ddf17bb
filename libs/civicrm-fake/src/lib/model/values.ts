import { createHash, timingSafeEqual } from 'node:crypto';
import { toCrmLocalTime } from '@checkin/contract';
import { Api4Error, type CrmDataType, type FieldDef, type StoredRecord } from './types';

/**
 * Typed values as CiviCRM stores them: dates in the CRM's zone, comparisons, money, munged names, file names.
 */

/** On a File joined to a row (5.81's url names that row as `eid`). */
export const FILE_ENTITY_ID = '__eid';

export function asArray(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export type Params = Record<string, unknown>;
export type Predicate = (record: StoredRecord) => boolean;

export interface ResolvedField {
  def: FieldDef;
  /** Pseudoconstant names and labels compare case-sensitively; columns compare like MySQL. */
  pseudo: boolean;
  get: (record: StoredRecord) => unknown;
}

export const fail = (message: string): never => {
  throw new Api4Error(500, message);
};

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Callers never share references with the state: everything crosses as JSON, like the wire. */
export function jsonCopy<T>(value: T): T {
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
export function writtenDate(input: string, withTime: boolean, clock: Date, timeZone: string): string {
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

const NUMERIC_TYPES: ReadonlySet<CrmDataType> = new Set([
  'Int',
  'Float',
  'Money',
  'File',
  'ContactReference',
  'Boolean',
]);

function toNumber(value: unknown): number {
  if (typeof value === 'boolean') return value ? 1 : 0;
  const number = Number(value);
  // MySQL casts a non-numeric string to 0 in a numeric comparison.
  return Number.isNaN(number) ? 0 : number;
}

/** Brings a where value to the stored form of its field so comparisons act like MySQL's. */
export function comparable(field: ResolvedField, value: unknown): unknown {
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

export function compareComparable(a: unknown, b: unknown, caseSensitive: boolean): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const left = caseSensitive ? String(a) : String(a).toLowerCase();
  const right = caseSensitive ? String(b) : String(b).toLowerCase();
  return left < right ? -1 : left > right ? 1 : 0;
}

export function likeRegex(pattern: string, caseSensitive: boolean): RegExp {
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

export function isEmptyValue(value: unknown): boolean {
  return (
    value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

export function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
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

export function storedFileName(record: StoredRecord): string | null {
  const uri = record.fields['uri'];
  return typeof uri === 'string' ? cleanFileName(uri) : null;
}

export function fileBytes(record: StoredRecord): Buffer {
  const content = record.fields[FILE_BYTES];
  return content instanceof Uint8Array ? Buffer.from(content) : Buffer.alloc(0);
}

/** The stored bytes of a File record: a column no select reaches. */
export const FILE_BYTES = '__bytes';

/** `YYYY-MM-DD HH:MM:SS` of an instant, as a wall clock in `timeZone` reads it. */
export function formatInZone(date: Date, timeZone: string): string {
  return timeZone === 'UTC' ? formatTimestamp(date) : toCrmLocalTime(date, timeZone);
}

/** The create answer's form of a timestamp: `YYYYMMDDhhmmss`. */
export function compactTimestamp(value: unknown): unknown {
  return typeof value === 'string' ? value.replace(/[- :]/g, '') : value;
}

/** MySQL DECIMAL(20,2): half away from zero, on the decimal text rather than a binary float. */
export function roundMoney(text: string): number {
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match) return Math.round(Number(text) * 100) / 100;
  const [, sign = '', whole = '', fraction = ''] = match;
  const cents = BigInt(`${whole || '0'}${fraction.padEnd(2, '0').slice(0, 2)}`);
  const rounded = (fraction.charAt(2) || '0') >= '5' ? cents + 1n : cents;
  const value = Number(rounded) / 100;
  return sign ? -value : value;
}

/** A DOUBLE read back through PHP: 14 significant digits (PHP's `precision`). */
export function phpFloat(value: number): number {
  return Number(value.toPrecision(14));
}

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

export function isInt32(value: unknown): boolean {
  return typeof value !== 'number' || (value >= INT32_MIN && value <= INT32_MAX);
}

/** CRM_Utils_Weight::getNewWeight over a group's weights. */
export function newWeight(weights: number[]): number {
  if (weights.length === 0) return 1;
  const duplicated = new Set(weights).size < weights.length;
  if (!duplicated) return Math.max(...weights);
  return Math.min(Math.max(...weights) + 1, Math.min(...weights) + weights.length - 1);
}

/** Set on a File whose content the extension decoded (its create answer says so). */
export const FILE_DECODED = '__decoded';

/** What CiviCRM answers when MySQL refuses a write (a 32-bit Int overflow, say). */
export const DB_ERROR = 'DB Error: unknown error';

export function base64Url(input: Buffer | string): string {
  return Buffer.from(input).toString('base64url');
}
