import { Inject, Injectable } from '@nestjs/common';
import type { FieldConfig, FieldValues } from '@checkin/contract';
import { crmNameOf } from '../fields/field-config';
import { type Api4Condition, CRM_CLIENT, type CrmClient, type CrmRow } from './crm-client';
import { crmLocalTimeToIso } from '@checkin/contract';
import { checkInsOf } from './check-in-filter';
import { ACTIVITY_STAGE_FIELD } from './crm-names';
import { checkRows, type RowShape } from './crm-rows';
import { CrmSiteService } from './crm-site.service';
import { stageValueOf } from './stage.service';
import { fileJoinsFor, fileNameColumns, fromCrmValue, selectFor } from './crm-values';

export interface OrganizationRecord {
  id: number;
  name: string;
  /** Contact-bound values keyed by form-side name; empty ones left out. */
  values: FieldValues;
  /** The row as the CRM answered, for readers that need more (staff report). */
  row: CrmRow;
}

export interface CheckInRecord {
  id: number;
  /** activity_date_time as an ISO 8601 instant (the CRM's local time read in its zone). */
  date: string;
  /** The Stage value set by staff, or null. */
  stageValue: string | null;
  /** Activity-bound values keyed by form-side name; empty ones left out. */
  values: FieldValues;
  row: CrmRow;
}

/** More to read with the records: columns, and the joins that provide some of them. */
export interface ExtraColumns {
  select?: readonly string[];
  join?: readonly unknown[];
}

/** A slice of the check-in list: at most `limit` of them, only those older than `olderThan`. */
export interface CheckInWindow {
  limit?: number;
  /** A check-in the slice starts after, in the list's order (date, then id, newest first). */
  olderThan?: { crmDate: string; id: number };
}

/**
 * Reads of the organization contact and of its 'Check-in (organizing)' activities, with CRM rows
 * turned into form values. Form, report and staff report read through here.
 *
 * File names: each file field selects the `<field>.file_name` join and also joins File
 * explicitly, because CiviCRM before 6.2 silently drops the former (docs/civicrm-setup.md).
 */
@Injectable()
export class CheckInRecordsService {
  constructor(
    @Inject(CRM_CLIENT) private readonly crm: CrmClient,
    private readonly site: CrmSiteService,
  ) {}

  async readOrganization(
    orgId: number,
    fields: readonly FieldConfig[],
    extra: ExtraColumns = {},
  ): Promise<OrganizationRecord> {
    const rows = await this.crm.api4('Contact', 'get', {
      select: [
        'id',
        'display_name',
        'organization_name',
        ...selectFor(fields, crmNameOf),
        ...(extra.select ?? []),
      ],
      ...joinsFor(fields, extra),
      where: [['id', '=', orgId]],
      limit: 1,
    });
    const [row] = checkRows('Contact.get', rows, ORGANIZATION_SHAPE);
    if (!row) return { id: orgId, name: '', values: {}, row: {} };
    return {
      id: orgId,
      name: String(row['organization_name'] || row['display_name'] || ''),
      values: valuesOf(fieldReaders(fields), row),
      row,
    };
  }

  /** Every check-in of the organization (or the window's slice of them), newest first (date, then id). */
  async listCheckIns(
    orgId: number,
    fields: readonly FieldConfig[],
    extra: ExtraColumns = {},
    window: CheckInWindow = {},
  ): Promise<CheckInRecord[]> {
    const checkIns = checkInsOf(orgId);
    const { olderThan } = window;
    // Keyset, not offset: a check-in recorded between two slices neither repeats nor hides one.
    const after: Api4Condition[] = olderThan
      ? [
          [
            'OR',
            [
              ['activity_date_time', '<', olderThan.crmDate],
              [
                'AND',
                [
                  ['activity_date_time', '=', olderThan.crmDate],
                  ['id', '<', olderThan.id],
                ],
              ],
            ],
          ],
        ]
      : [];
    const [rows, timeZone] = await Promise.all([
      this.crm.api4('Activity', 'get', {
        select: [
          'id',
          'activity_date_time',
          ACTIVITY_STAGE_FIELD,
          ...selectFor(fields, crmNameOf),
          ...(extra.select ?? []),
        ],
        join: [...checkIns.join, ...fileJoinsFor(fields, crmNameOf), ...(extra.join ?? [])],
        where: [...checkIns.where, ...after],
        orderBy: { activity_date_time: 'DESC', id: 'DESC' },
        ...(window.limit === undefined ? {} : { limit: window.limit }),
      }),
      this.site.timeZone(),
    ]);
    const readers = fieldReaders(fields);
    return checkRows('Activity.get', rows, CHECK_IN_SHAPE).map((row) => {
      return {
        id: Number(row['id']),
        date: crmLocalTimeToIso(row['activity_date_time'], timeZone),
        stageValue: stageValueOf(row[ACTIVITY_STAGE_FIELD]),
        values: valuesOf(readers, row),
        row,
      };
    });
  }
}

const ORGANIZATION_SHAPE: RowShape = { id: 'id', display_name: 'string?', organization_name: 'string?' };
const CHECK_IN_SHAPE: RowShape = { id: 'id', activity_date_time: 'string?' };

/** The `join` parameter, left out when there is nothing to join. */
function joinsFor(fields: readonly FieldConfig[], extra: ExtraColumns): { join?: unknown[] } {
  const join = [...fileJoinsFor(fields, crmNameOf), ...(extra.join ?? [])];
  return join.length > 0 ? { join } : {};
}

interface FieldReader {
  field: FieldConfig;
  crmName: string;
  /** The columns that may carry a file field's name (implicit join, explicit join). */
  fileNameColumns: readonly string[];
}

/** CRM names resolved once per read, not once per row: a report walks 500 rows of 150 fields. */
function fieldReaders(fields: readonly FieldConfig[]): FieldReader[] {
  return fields.map((field) => {
    const crmName = crmNameOf(field);
    return { field, crmName, fileNameColumns: field.type === 'file' ? fileNameColumns(field, crmName) : [] };
  });
}

function valuesOf(readers: readonly FieldReader[], row: CrmRow): FieldValues {
  const values: FieldValues = {};
  for (const { field, crmName, fileNameColumns } of readers) {
    let fileName: unknown;
    for (const column of fileNameColumns) fileName ||= row[column];
    const value = fromCrmValue(field, row[crmName], fileName);
    if (value !== null) values[field.name] = value;
  }
  return values;
}
