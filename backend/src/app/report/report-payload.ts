import {
  type FieldConfig,
  isEmptyAnswer,
  type FieldReport,
  type FieldValues,
  type OptionMap,
  type OrganizationFacts,
  type ReportPayload,
  type SectionConfig,
  type StageInfo,
  type StageOption,
  type ValueFormatSettings,
  DEFAULT_VALUE_FORMAT,
} from '@checkin/contract';
import { buildFieldHistory, latestValueOf, summarizeCheckIns } from '../check-ins/field-history';
import { buildQuarterlyMatrix, isMatrixField, matrixRows } from '../check-ins/quarterly-matrix';
import { newestStageValue, toStageInfo } from '../check-ins/stages';
import type { CheckInRecord } from '../check-ins/check-in-record';

/** Everything the report is made of, as read from the CRM in one round. */
export interface ReportSources {
  orgName: string;
  /** The organization's values of the fields in organizationFieldsOf(sections), by form-side name. */
  organizationValues: FieldValues;
  /** Every check-in of the organization, newest first (date, then id). */
  checkins: readonly CheckInRecord[];
  options: OptionMap;
  stages: readonly StageOption[];
  /** The form's sections; the report keeps what the history can hold (see reportSections). */
  sections: readonly SectionConfig[];
  /** The site's currency and locale (SiteMetadataCache.valueFormat); CiviCRM's defaults when absent. */
  valueFormat?: ValueFormatSettings;
}

/**
 * The report route's answer (docs/product-rules.md, "Report"; docs/decisions.md, "Report shapes"). Pure: the route reads the CRM,
 * this shapes what it read, so the benchmark and the unit specs run the exact code the route does.
 */
export function buildReportPayload(sources: ReportSources): ReportPayload {
  const sections = reportSections(sources.sections);
  const activityFields = activityFieldsOf(sections);
  const fieldHistory = buildFieldHistory(sources.checkins, activityFields);
  const report = (field: FieldConfig): FieldReport => {
    const history = fieldHistory[field.name] ?? [];
    return { field, latest: latestValueOf(history), history };
  };
  return {
    orgName: sources.orgName,
    currentStage: currentStageOf(sources.checkins, sources.stages),
    activities: summarizeCheckIns(sources.checkins, sources.stages),
    fieldHistory,
    options: sources.options,
    stages: [...sources.stages],
    sections,
    organizationFacts: organizationFactsOf(sources.sections, sources.organizationValues),
    quarterlyMatrix: buildQuarterlyMatrix(matrixRows(activityFields.filter(isMatrixField)), report),
    valueFormat: sources.valueFormat ?? DEFAULT_VALUE_FORMAT,
  };
}

/**
 * The organization fields the form writes (section 0's contact-bound, editable fields), in the
 * form's order: the contact has one current value each and no dates.
 */
export function organizationFieldsOf(sections: readonly SectionConfig[]): FieldConfig[] {
  return sections
    .filter((section) => section.rank === 0)
    .flatMap((section) => section.fields.filter((field) => field.crmContactField && !field.readOnly));
}

function organizationFactsOf(sections: readonly SectionConfig[], values: FieldValues): OrganizationFacts {
  const title = sections.find((section) => section.rank === 0)?.title ?? 'Your co-op';
  const fields = organizationFieldsOf(sections).flatMap((field): FieldReport[] => {
    const value = values[field.name];
    return value === undefined || isEmptyAnswer(value) ? [] : [{ field, latest: value, history: [] }];
  });
  return { title, fields };
}

/** The current stage (newestStageValue) with its rank and label. */
export function currentStageOf(
  checkins: readonly CheckInRecord[],
  stages: readonly StageOption[],
): StageInfo {
  return toStageInfo(newestStageValue(checkins), stages);
}

/**
 * Only activity-bound fields have a history. The stage sections (1..5) are kept whole; the
 * organization section (0) appears only if it holds activity-bound fields, and then only those,
 * since its contact-bound and identity fields are read from the contact, not from check-ins.
 */
export function reportSections(sections: readonly SectionConfig[]): SectionConfig[] {
  return sections.flatMap((section): SectionConfig[] => {
    if (section.rank !== 0) return [section];
    const activityFields = activityFieldsOf([section]);
    return activityFields.length > 0 ? [{ ...section, fields: activityFields }] : [];
  });
}

function activityFieldsOf(sections: readonly SectionConfig[]): FieldConfig[] {
  return sections.flatMap((section) => section.fields.filter((field) => field.crmField));
}
