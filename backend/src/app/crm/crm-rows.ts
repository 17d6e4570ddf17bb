import type { CrmRow } from './crm-client';
import { CrmError } from './crm-errors';

/**
 * The boundary check of CRM answers: a gateway names the columns it reads and their kinds, and a
 * row of another shape becomes a CrmError 'malformed' (502 CRM_UNAVAILABLE, docs/decisions.md,
 * "CRM failures") instead of a TypeError deep in a feature.
 */
export type ColumnKind =
  /** A positive safe integer (APIv4 answers ids as numbers). */
  | 'id'
  /** A positive integer as a number or a digit string (APIv3 answers ids as strings). */
  | 'id-or-digits'
  | 'string'
  | 'string?'
  | 'boolean?'
  | 'number?'
  | 'array';

export type RowShape = Readonly<Record<string, ColumnKind>>;

export function checkRows(call: string, rows: unknown, shape: RowShape): CrmRow[] {
  if (!Array.isArray(rows)) throw malformed(call, 'answer is not a list of rows');
  for (const row of rows) checkRow(call, row, shape);
  return rows as CrmRow[];
}

export function checkRow(call: string, row: unknown, shape: RowShape): CrmRow {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) {
    throw malformed(call, 'a row is not an object');
  }
  for (const [column, kind] of Object.entries(shape)) {
    if (!fits((row as CrmRow)[column], kind)) throw malformed(call, `column ${column} is not ${kind}`);
  }
  return row as CrmRow;
}

function fits(value: unknown, kind: ColumnKind): boolean {
  switch (kind) {
    case 'id':
      return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
    case 'id-or-digits':
      return (
        (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) ||
        (typeof value === 'string' && /^\d{1,15}$/.test(value))
      );
    case 'string':
      return typeof value === 'string';
    case 'string?':
      return value === undefined || value === null || typeof value === 'string';
    case 'boolean?':
      return value === undefined || value === null || typeof value === 'boolean';
    case 'number?':
      return value === undefined || value === null || typeof value === 'number';
    case 'array':
      return Array.isArray(value);
  }
}

export function malformed(call: string, detail: string): CrmError {
  return new CrmError('malformed', call, detail);
}
