import type {
  FieldConfig,
  OptionMap,
  ReportPayload,
  SectionConfig,
  StageInfo,
  StageOption,
} from '@checkin/contract';
import type { CheckInRecord } from '../crm/check-in-records.service';
import { newestStageValue, toStageInfo } from '../crm/stage.service';
import { buildFieldHistory, summarizeCheckIns } from './field-history';

/** Everything the report is made of, as read from the CRM in one round. */
export interface ReportSources {
  orgName: string;
  /** Every check-in of the organization, newest first (date, then id). */
  checkins: readonly CheckInRecord[];
  options: OptionMap;
  stages: readonly StageOption[];
  /** The form's sections; the report keeps what the history can hold (see reportSections). */
  sections: readonly SectionConfig[];
}

/**
 * The report route's answer (docs/product-rules.md, "Report"; docs/decisions.md, "Report shapes"). Pure: the route reads the CRM,
 * this shapes what it read, so the benchmark and the unit specs run the exact code the route does.
 */
export function buildReportPayload(sources: ReportSources): ReportPayload {
  const sections = reportSections(sources.sections);
  return {
    orgName: sources.orgName,
    currentStage: currentStageOf(sources.checkins, sources.stages),
    activities: summarizeCheckIns(sources.checkins, sources.stages),
    fieldHistory: buildFieldHistory(sources.checkins, activityFieldsOf(sections)),
    options: sources.options,
    stages: [...sources.stages],
    sections,
  };
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
