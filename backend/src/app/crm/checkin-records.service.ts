import { Inject, Injectable } from '@nestjs/common';
import type { FieldConfig, FieldValues } from '@checkin/contract';
import { crmNameOf } from '../fields/field-config';
import { CRM_CLIENT, type CrmClient, type CrmRow } from './crm-client';
import { ACTIVITY_STAGE_FIELD, ACTIVITY_TYPE_NAME } from './crm-names';
import { crmDateTimeToIso, fileNameColumn, fromCrmValue, selectFor } from './crm-values';

export interface OrganizationRecord {
  id: number;
  name: string;
  /** Contact-bound values keyed by form-side name; empty ones left out. */
  values: FieldValues;
  /** The row as the CRM answered, for readers that need more (staff report). */
  row: CrmRow;
}

export interface CheckinRecord {
  id: number;
  /** activity_date_time as ISO 8601 (no offset: the CRM's local time). */
  date: string;
  /** The Stage value set by staff, or null. */
  stageValue: string | null;
  /** Activity-bound values keyed by form-side name; empty ones left out. */
  values: FieldValues;
  row: CrmRow;
}

/**
 * Reads of the organization contact and of its 'Check-in (organizing)' activities, with CRM rows
 * turned into form values. Form, report and staff report read through here.
 */
@Injectable()
export class CheckinRecordsService {
  constructor(@Inject(CRM_CLIENT) private readonly crm: CrmClient) {}

  async readOrganization(
    orgId: number,
    fields: readonly FieldConfig[],
    extraSelect: string[] = [],
  ): Promise<OrganizationRecord> {
    const [row] = await this.crm.api4('Contact', 'get', {
      select: ['id', 'display_name', 'organization_name', ...selectFor(fields, crmNameOf), ...extraSelect],
      where: [['id', '=', orgId]],
      limit: 1,
    });
    if (!row) return { id: orgId, name: '', values: {}, row: {} };
    return {
      id: orgId,
      name: String(row['organization_name'] || row['display_name'] || ''),
      values: valuesOf(fieldReaders(fields), row),
      row,
    };
  }

  /** Every check-in of the organization, newest first (date, then id). */
  async listCheckins(
    orgId: number,
    fields: readonly FieldConfig[],
    extraSelect: string[] = [],
  ): Promise<CheckinRecord[]> {
    const rows = await this.crm.api4('Activity', 'get', {
      select: [
        'id',
        'activity_date_time',
        ACTIVITY_STAGE_FIELD,
        ...selectFor(fields, crmNameOf),
        ...extraSelect,
      ],
      where: [
        ['activity_type_id:name', '=', ACTIVITY_TYPE_NAME],
        ['target_contact_id', 'CONTAINS', orgId],
      ],
      orderBy: { activity_date_time: 'DESC', id: 'DESC' },
    });
    const readers = fieldReaders(fields);
    return rows.map((row) => {
      const stage = row[ACTIVITY_STAGE_FIELD];
      return {
        id: Number(row['id']),
        date: crmDateTimeToIso(row['activity_date_time']),
        stageValue: stage === null || stage === undefined || stage === '' ? null : String(stage),
        values: valuesOf(readers, row),
        row,
      };
    });
  }
}

interface FieldReader {
  field: FieldConfig;
  crmName: string;
  /** The file name join's column, for file fields. */
  fileNameColumn: string | undefined;
}

/** CRM names resolved once per read, not once per row: a report walks 500 rows of 150 fields. */
function fieldReaders(fields: readonly FieldConfig[]): FieldReader[] {
  return fields.map((field) => {
    const crmName = crmNameOf(field);
    return { field, crmName, fileNameColumn: field.type === 'file' ? fileNameColumn(crmName) : undefined };
  });
}

function valuesOf(readers: readonly FieldReader[], row: CrmRow): FieldValues {
  const values: FieldValues = {};
  for (const { field, crmName, fileNameColumn } of readers) {
    const value = fromCrmValue(field, row[crmName], fileNameColumn && row[fileNameColumn]);
    if (value !== null) values[field.name] = value;
  }
  return values;
}
