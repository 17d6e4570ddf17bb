import type {
  FieldConfig,
  FieldValues,
  FieldReport,
  StaffSection,
  StaffSubmission,
  StageOption,
} from '@checkin/contract';
import type { CheckInRecord } from '../crm/check-in-records.service';
import type { CrmRow } from '../crm/crm-client';
import { CLEARED_FIELDS_FIELD } from '../form/cleared-answers';
import { buildFieldHistory, latestValueOf, summarizeCheckIns } from '../report/field-history';
import { buildQuarterlyMatrix, MATRIX_SECTION_RANK } from '../report/quarterly-matrix';
import type { StaffLayout } from './staff-layout';

/**
 * What the check-in read adds: the answers each check-in cleared (so a cleared answer is the
 * latest value, as on the owner's report), and for the submissions list the subject and who
 * recorded each check-in through a join on the activity's source contact.
 * (`source_contact_id.display_name` is silently dropped by CiviCRM: source_contact_id is a
 * virtual field on Activity.)
 */
export const SUBMISSION_COLUMNS = {
  select: [CLEARED_FIELDS_FIELD, 'subject', 'recorder.display_name'],
  join: [
    [
      'Contact AS recorder',
      'LEFT',
      'ActivityContact',
      ['id', '=', 'recorder.activity_id'],
      ['recorder.record_type_id:name', '=', '"Activity Source"'],
    ],
  ],
} as const;

/**
 * The staff report's sections from the layout and the CRM records: per field the latest value
 * and, for activity-side fields, every earlier one (newest first, docs/decisions.md, "Report shapes"). `checkins` must
 * be newest first, as CheckInRecordsService.listCheckIns returns them.
 */
export function buildStaffSections(
  layout: StaffLayout,
  organizationValues: FieldValues,
  checkins: readonly CheckInRecord[],
): StaffSection[] {
  const history = buildFieldHistory(checkins, layout.activityFields);
  const report = (field: FieldConfig): FieldReport => {
    if (field.crmContactField) return { field, latest: organizationValues[field.name] ?? null, history: [] };
    const entries = history[field.name] ?? [];
    return { field, latest: latestValueOf(entries), history: entries };
  };
  return layout.sections.map((section) => {
    const built: StaffSection = {
      key: section.key,
      rank: section.rank,
      title: section.title,
      fields: section.fields.map(report),
    };
    const matrix = section.rank === MATRIX_SECTION_RANK ? buildQuarterlyMatrix(layout.matrix, report) : null;
    if (matrix) built.matrix = matrix;
    return built;
  });
}

/** Every check-in as staff list it: the summary of docs/decisions.md, "Report shapes", its subject and who recorded it. */
export function buildSubmissions(
  checkins: readonly CheckInRecord[],
  stages: readonly StageOption[],
): StaffSubmission[] {
  const summaries = summarizeCheckIns(checkins, stages);
  return summaries.map((summary, index) => {
    const row: CrmRow = checkins[index]?.row ?? {};
    return {
      ...summary,
      subject: textOrNull(row['subject']),
      recordedBy: textOrNull(row['recorder.display_name']),
    };
  });
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}
