import type { FieldConfig, FieldValue, FieldValues, FileValue } from '@checkin/contract';
import { crmNameOf } from '../fields/field-config';
import { createHash } from 'node:crypto';
import type { CrmRow } from './crm-client';

/**
 * Converting between CiviCRM's representation of custom values and the form's. Pure
 * functions, shared by every reader and writer of check-in data.
 */

/**
 * The select list that reads fields. A file field also selects `<field>.file_name` (the implicit
 * join CiviCRM 6.2+ answers) and the name through the explicit join of fileJoinsFor (which 5.81
 * answers too).
 */
export function selectFor(fields: readonly FieldConfig[], crmName: (field: FieldConfig) => string): string[] {
  return fields.flatMap((field) =>
    field.type === 'file' ? [crmName(field), ...fileNameColumns(field, crmName(field))] : [crmName(field)],
  );
}

/** The APIv4 implicit join that reads a file field's file name alongside its id. */
export function fileNameColumn(crmName: string): string {
  return `${crmName}.file_name`;
}

/** The explicit-join aliases CiviCRM accepts (Api4SelectQuery::addExplicitJoins). */
const LEGAL_JOIN_ALIAS = /^[-\w]{1,256}$/;
/** Room left for the name in an alias that carries its hash: `file_` + name + `_` + 16 hex. */
const ALIAS_NAME_ROOM = 256 - 'file_'.length - 1 - 16;

/**
 * The alias of a file field's explicit File join: `file_<name>` when CiviCRM accepts that, else
 * (a discovered field's `Group.Field` name, or one too long) the name with every character
 * CiviCRM refuses made `_`, cut to fit, and a hash of the whole name so two such names never
 * share an alias. Always the same alias for the same name.
 */
export function fileJoinAlias(field: Pick<FieldConfig, 'name'>): string {
  const plain = `file_${field.name}`;
  if (LEGAL_JOIN_ALIAS.test(plain)) return plain;
  const hash = createHash('sha256').update(field.name).digest('hex').slice(0, 16);
  return `file_${field.name.replace(/[^-\w]/g, '_').slice(0, ALIAS_NAME_ROOM)}_${hash}`;
}

/** Every column that can carry a file field's name, implicit join first. */
export function fileNameColumns(field: FieldConfig, crmName: string): string[] {
  return [fileNameColumn(crmName), `${fileJoinAlias(field)}.file_name`];
}

/** One explicit `File` LEFT join per file field: `["File AS file_X", "LEFT", ["Group.X", "=", "file_X.id"]]`. */
export function fileJoinsFor(
  fields: readonly FieldConfig[],
  crmName: (field: FieldConfig) => string,
): unknown[] {
  return fields
    .filter((field) => field.type === 'file')
    .map((field) => [
      `File AS ${fileJoinAlias(field)}`,
      'LEFT',
      [crmName(field), '=', `${fileJoinAlias(field)}.id`],
    ]);
}

/**
 * A CRM value read into a form value; null for empty. `fileName` is the file name join's value,
 * read only for file fields.
 */
export function fromCrmValue(field: FieldConfig, raw: unknown, fileName?: unknown): FieldValue {
  if (isEmptyCrmValue(raw)) return null;
  switch (field.type) {
    case 'file':
      return toFileValue(raw, fileName);
    case 'number':
    case 'currency':
    case 'percent':
      return toNumberOrText(raw);
    case 'boolean':
      return raw === true || raw === 1 || raw === '1' || raw === 'true';
    case 'multiselect':
      return toList(raw);
    case 'date':
      return String(raw);
    case 'select':
    case 'readonly':
    case 'text':
      return typeof raw === 'string' || typeof raw === 'number' ? String(raw) : JSON.stringify(raw);
  }
}

/** A submitted form value written as CiviCRM stores it: a file as its id (docs/product-rules.md, "Submit", rule 4). */
export function toCrmValue(field: FieldConfig, value: FieldValue): unknown {
  if (value === null || value === '') return null;
  if (field.type === 'file') return typeof value === 'object' && !Array.isArray(value) ? value.id : value;
  if (field.type === 'multiselect' && Array.isArray(value) && value.length === 0) return null;
  return value;
}

export function isEmptyCrmValue(value: unknown): boolean {
  return (
    value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

export function toFileValue(id: unknown, fileName: unknown): FileValue | null {
  const numericId = typeof id === 'number' ? id : Number(id);
  if (!Number.isSafeInteger(numericId) || numericId <= 0) return null;
  return typeof fileName === 'string' && fileName !== ''
    ? { id: numericId, file_name: fileName }
    : { id: numericId };
}

/** CiviCRM stores multi-values as arrays in APIv4, or SOH-delimited strings in older paths. */
function toList(raw: unknown): string[] {
  if (Array.isArray(raw)) return raw.map(String).filter((item) => item !== '');
  return String(raw)
    .split(String.fromCharCode(1))
    .filter((item) => item !== '');
}

function toNumberOrText(raw: unknown): number | string {
  if (typeof raw === 'number') return raw;
  const parsed = Number(raw);
  return Number.isFinite(parsed) ? parsed : String(raw);
}

/** How a read turns a row's columns into one field's value. */
export interface FieldReader {
  field: FieldConfig;
  crmName: string;
  /** The columns that may carry a file field's name (implicit join, explicit join). */
  fileNameColumns: readonly string[];
}

/** CRM names resolved once per read, not once per row: a report walks 500 rows of 150 fields. */
export function fieldReaders(fields: readonly FieldConfig[]): FieldReader[] {
  return fields.map((field) => {
    const crmName = crmNameOf(field);
    return { field, crmName, fileNameColumns: field.type === 'file' ? fileNameColumns(field, crmName) : [] };
  });
}

/** A row's answers keyed by form-side name; empty ones left out. */
export function valuesOf(readers: readonly FieldReader[], row: CrmRow): FieldValues {
  const values: FieldValues = {};
  for (const { field, crmName, fileNameColumns } of readers) {
    let fileName: unknown;
    for (const column of fileNameColumns) fileName ||= row[column];
    const value = fromCrmValue(field, row[crmName], fileName);
    if (value !== null) values[field.name] = value;
  }
  return values;
}
