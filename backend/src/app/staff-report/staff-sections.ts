import type {
  FieldConfig,
  FieldValues,
  FieldReport,
  StaffSection,
  StaffSubmission,
  StageOption,
} from '@checkin/contract';
import { buildFieldHistory, latestValueOf, summarizeCheckIns } from '../check-ins/field-history';
import { buildQuarterlyMatrix, MATRIX_SECTION_RANK } from '../check-ins/quarterly-matrix';
import type { CheckInRecord } from '../check-ins/check-in-record';
import type { CheckInRead } from '../crm/check-ins.gateway';
import type { StaffLayout } from './staff-layout';

/**
 * What the staff report reads of each check-in besides its answers: the answers it cleared (so a
 * cleared answer is the latest value, as on the owner's report), and for the submissions list its
 * subject and who recorded it.
 */
export const STAFF_CHECK_IN_READ: CheckInRead = { cleared: true, recorder: true };

/**
 * The staff report's sections from the layout and the CRM records: per field the latest value
 * and, for activity-side fields, every earlier one (newest first, docs/decisions.md, "Report shapes"). `checkins` must
 * be newest first, as CrmCheckInsGateway.list returns them.
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
  return summaries.map((summary, index) => ({
    ...summary,
    subject: checkins[index]?.subject ?? null,
    recordedBy: checkins[index]?.recordedBy ?? null,
  }));
}
