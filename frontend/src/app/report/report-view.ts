import {
  type FieldConfig,
  type FieldHistoryEntry,
  NUMERIC_FIELD_TYPES,
  type OptionItem,
  type QuarterlyMatrix,
  type ReportPayload,
  type StageRank,
} from '@checkin/contract';
import { formatDate, formatValue } from '../core/value-format';
import { formatMonthSpan } from '../shared/dates';
import { headlineFigures, type HeadlineView, stageProgress, type StageStep } from './report-summary';
import { CLEARED_LABEL, trendOf, type TrendView, type ViewOptions } from './trend';

export { CLEARED_LABEL, type TrendView, type ViewOptions } from './trend';

/**
 * What the report page shows, derived from the API's ReportPayload: the header's counts, the
 * co-op's own facts, the stage sections that have answers, and per field the latest value, the
 * earlier ones and, for numbers, a trend. Every value is formatted here (docs/product-rules.md,
 * "Value formatting"), so templates only place text and the rules are tested without a browser.
 */
export interface ReportView {
  orgName: string;
  stageLabel: string;
  /** Check-ins an owner sent: every check-in but the stage changes staff recorded. */
  checkInCount: number;
  /** Check-ins staff recorded to set the co-op's stage (the form never sets one: docs/decisions.md, "Stages"). */
  stageChangeCount: number;
  /** Fields with at least one answer, the co-op's own facts included. */
  fieldsTracked: number;
  /**
   * Nothing to show but the stages: no check-in recorded at all, or none with an answer (a co-op
   * whose only check-in is a stage change staff recorded). The page says what will appear.
   */
  empty: boolean;
  /** "March 2022 – November 2026", from the oldest check-in to the newest. */
  dateSpan: string;
  /** "Your co-op": the organization's facts as they stand now; null when none is set. */
  organization: OrganizationView | null;
  /** Stage sections in rank order, only those with at least one answered field. */
  sections: SectionView[];
  /** Every stage, the current one marked. */
  stages: StageStep[];
  /** The configured headline figures that have answers. */
  headlines: HeadlineView[];
}

export interface OrganizationView {
  title: string;
  facts: Array<{ name: string; label: string; valueLabel: string; numeric: boolean }>;
}

export interface SectionView {
  rank: StageRank;
  title: string;
  /** Every answered field but the quarterly ones, which are in `matrix`. */
  fields: FieldView[];
  /** The first-year quarterly fields as one table (built by the server); null when none has an answer. */
  matrix: QuarterlyMatrix | null;
  /** Each answered quarterly cell as a field of its own: its date, earlier entries and trend. */
  matrixFields: FieldView[];
  /** Stages before the current one start collapsed: the owner's attention is on the present. */
  startsCollapsed: boolean;
}

export interface FieldView {
  name: string;
  label: string;
  numeric: boolean;
  latest: EntryView;
  /** Newest first. */
  earlier: EntryView[];
  /** Numeric fields with at least two dated numeric points. */
  trend: TrendView | null;
}

export interface EntryView {
  activityId: number;
  /** The check-in's date and time as the CRM holds it, for `<time datetime>`. */
  dateTime: string;
  dateLabel: string;
  valueLabel: string;
}

const NO_CHECKINS = 'No check-ins yet';

export function buildReportView(report: ReportPayload, options: ViewOptions): ReportView {
  const current = report.currentStage.rank;
  const matrix = report.quarterlyMatrix;
  const matrixFieldNames = new Set(
    (matrix?.rows ?? []).flatMap((row) => row.cells.flatMap((cell) => (cell ? [cell.field.name] : []))),
  );
  const sections = [...report.sections]
    .sort((a, b) => a.rank - b.rank)
    .map((section): SectionView => {
      const views = (fields: readonly FieldConfig[]) =>
        fields.flatMap((field) => {
          const view = fieldView(
            field,
            report.fieldHistory[field.name] ?? [],
            report.options[field.name],
            options,
          );
          return view ? [view] : [];
        });
      const matrixFields =
        matrix && matrix.sectionRank === section.rank ? views(quarterCellFields(matrix)) : [];
      return {
        rank: section.rank,
        title: section.title,
        fields: views(section.fields.filter((field) => !matrixFieldNames.has(field.name))),
        matrix: matrixFields.length > 0 ? matrix : null,
        matrixFields,
        startsCollapsed: section.rank < current,
      };
    })
    .filter((section) => section.fields.length > 0 || section.matrix !== null);
  const organization = organizationView(report, options);
  const fieldsTracked =
    (organization?.facts.length ?? 0) +
    sections.reduce((count, section) => count + section.fields.length + section.matrixFields.length, 0);

  return {
    orgName: report.orgName,
    stageLabel: report.currentStage.label,
    checkInCount: report.activities.filter((activity) => !isStaffStageChange(activity)).length,
    stageChangeCount: report.activities.filter(isStaffStageChange).length,
    fieldsTracked,
    empty: report.activities.length === 0 || fieldsTracked === 0,
    dateSpan: dateSpanOf(report, options.locale),
    organization,
    sections,
    stages: stageProgress(report),
    headlines: headlineFigures(report, options),
  };
}

/** Only staff set a check-in's stage; an owner's check-in never carries one. */
function isStaffStageChange(activity: ReportPayload['activities'][number]): boolean {
  return activity.stage !== null;
}

/** Each quarterly cell's field, labelled by its row and quarter ("Sales, Q1"), row by row. */
function quarterCellFields(matrix: QuarterlyMatrix): FieldConfig[] {
  return matrix.rows.flatMap((row) =>
    row.cells.flatMap((cell, index) =>
      cell ? [{ ...cell.field, label: `${row.label}, ${matrix.quarters[index] ?? ''}`.trim() }] : [],
    ),
  );
}

function organizationView(report: ReportPayload, options: ViewOptions): OrganizationView | null {
  const { title, fields } = report.organizationFacts;
  if (fields.length === 0) return null;
  return {
    title,
    facts: fields.map(({ field, latest }) => ({
      name: field.name,
      label: field.label,
      numeric: NUMERIC_FIELD_TYPES.includes(field.type),
      valueLabel: formatValue(latest, field, { ...options, options: report.options[field.name] }),
    })),
  };
}

/** The id of a field's heading, so the timeline can lead to it. */
export function fieldAnchorId(fieldName: string): string {
  return `field-${fieldName}`;
}

/** "1 earlier entry", "3 earlier entries". */
export function earlierEntriesLabel(count: number): string {
  return `${count} earlier ${count === 1 ? 'entry' : 'entries'}`;
}

function dateSpanOf(report: ReportPayload, locale: string): string {
  const newest = report.activities[0];
  const oldest = report.activities.at(-1);
  return newest && oldest ? formatMonthSpan(oldest.date, newest.date, locale) : NO_CHECKINS;
}

/** Null for a field without entries: the report leaves it out. */
function fieldView(
  field: FieldConfig,
  entries: readonly FieldHistoryEntry[],
  fieldOptions: readonly OptionItem[] | undefined,
  options: ViewOptions,
): FieldView | null {
  const [latest, ...earlier] = entries.map((entry) => entryView(entry, field, fieldOptions, options));
  if (!latest) return null;
  const numeric = NUMERIC_FIELD_TYPES.includes(field.type);
  return {
    name: field.name,
    label: field.label,
    numeric,
    latest,
    earlier,
    trend: numeric ? trendOf(field, entries, options) : null,
  };
}

function entryView(
  entry: FieldHistoryEntry,
  field: FieldConfig,
  fieldOptions: readonly OptionItem[] | undefined,
  options: ViewOptions,
): EntryView {
  return {
    activityId: entry.activityId,
    dateTime: entry.date,
    dateLabel: formatDate(entry.date, options.locale),
    // A null entry is an answer the owner cleared at that check-in.
    valueLabel:
      entry.value === null
        ? CLEARED_LABEL
        : formatValue(entry.value, field, { ...options, options: fieldOptions }),
  };
}
