import {
  type FieldConfig,
  type FieldHistoryEntry,
  NUMERIC_FIELD_TYPES,
  type OptionItem,
  type ReportPayload,
  type StageRank,
  type StaffMatrix,
} from '@checkin/contract';
import { formatDate, formatValue, toNumber } from '../core/value-format';
import {
  headlineFigures,
  type HeadlineView,
  isQuarterlyField,
  quarterlyMatrix,
  stageProgress,
  type StageStep,
} from './report-summary';
import { dayAndTime, formatCalendarDay, formatMonthSpan, SECOND_IN_DAYS } from './report-dates';

/**
 * What the report page shows, derived from the API's ReportPayload: the header's counts, the
 * stage sections that have answers, and per field the latest value, the earlier ones and, for
 * numbers, a trend. Every value is formatted here (docs/product-rules.md, "Value formatting"), so templates only
 * place text and the rules are tested without a browser.
 */
export interface ReportView {
  orgName: string;
  stageLabel: string;
  checkInCount: number;
  /** Fields with at least one answer. */
  fieldsTracked: number;
  /** "March 2022 – November 2026", from the oldest check-in to the newest. */
  dateSpan: string;
  /** Stage sections in rank order, only those with at least one answered field. */
  sections: SectionView[];
  /** Every stage, the current one marked. */
  stages: StageStep[];
  /** The configured headline figures that have answers. */
  headlines: HeadlineView[];
}

export interface SectionView {
  rank: StageRank;
  title: string;
  /** Every answered field but the quarterly ones, which are in `matrix`. */
  fields: FieldView[];
  /** The first-year quarterly fields as one table; null when none has an answer. */
  matrix: StaffMatrix | null;
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

/** How a cleared answer reads in the history. */
export const CLEARED_LABEL = 'Cleared';

export interface EntryView {
  activityId: number;
  /** The check-in's date and time as the CRM holds it, for `<time datetime>`. */
  dateTime: string;
  dateLabel: string;
  valueLabel: string;
}

export interface TrendPoint {
  /**
   * When the answer was given, in days since 1970-01-01: the calendar day plus the time of day as
   * a fraction, so two check-ins on one day are two points, in the order they were made.
   */
  day: number;
  value: number;
}

export interface TrendView {
  /** Oldest first; one point per numeric answer. */
  points: TrendPoint[];
  minLabel: string;
  maxLabel: string;
  /** One sentence that says what the chart shows, for those who cannot see it. */
  summary: string;
  /** The chart's axes show only where the series starts and ends, and its extremes. */
  xTicks: number[];
  yTicks: number[];
  formatX: (day: number) => string;
  formatY: (value: number) => string;
}

export interface ViewOptions {
  locale: string;
  currency?: string;
}

const NO_CHECKINS = 'No check-ins yet';

export function buildReportView(report: ReportPayload, options: ViewOptions): ReportView {
  const current = report.currentStage.rank;
  const sections = [...report.sections]
    .sort((a, b) => a.rank - b.rank)
    .map((section): SectionView => ({
      rank: section.rank,
      title: section.title,
      fields: section.fields
        .filter((field) => !isQuarterlyField(field))
        .flatMap((field) => {
          const view = fieldView(
            field,
            report.fieldHistory[field.name] ?? [],
            report.options[field.name],
            options,
          );
          return view ? [view] : [];
        }),
      matrix: quarterlyMatrix(section.fields, report),
      startsCollapsed: section.rank < current,
    }))
    .filter((section) => section.fields.length > 0 || section.matrix !== null);

  return {
    orgName: report.orgName,
    stageLabel: report.currentStage.label,
    checkInCount: report.activities.length,
    fieldsTracked: sections.reduce(
      (count, section) => count + section.fields.length + matrixCount(section),
      0,
    ),
    dateSpan: dateSpanOf(report, options.locale),
    sections,
    stages: stageProgress(report),
    headlines: headlineFigures(report, options),
  };
}

/** Quarterly fields with an answer: each counts as a tracked field, as in a row of its own. */
function matrixCount(section: SectionView): number {
  return (section.matrix?.rows ?? []).reduce(
    (count, row) => count + row.cells.filter((cell) => cell && cell.history.length > 0).length,
    0,
  );
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

/**
 * The numeric answers as a series, oldest first, one point per answer (docs/product-rules.md, "Report": two numeric points
 * give a chart). Answers on the same day are placed by their time; two with the very same time
 * keep the CRM's order (newest first, by id) and sit a second apart, so none hides another.
 */
export function trendPoints(entries: readonly FieldHistoryEntry[]): TrendPoint[] {
  const points: Array<TrendPoint & { order: number }> = [];
  entries.forEach((entry, index) => {
    const day = dayAndTime(entry.date);
    const value = toNumber(entry.value);
    if (day !== null && value !== null) points.push({ day, value, order: -index });
  });
  points.sort((a, b) => a.day - b.day || a.order - b.order);
  let previous = -Infinity;
  return points.map(({ day, value }) => {
    const placed = Math.max(day, previous + SECOND_IN_DAYS);
    previous = placed;
    return { day: placed, value };
  });
}

export function trendOf(
  field: FieldConfig,
  entries: readonly FieldHistoryEntry[],
  options: ViewOptions,
): TrendView | null {
  const points = trendPoints(entries);
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last || points.length < 2) return null;
  const values = points.map((point) => point.value);
  const [min, max] = [Math.min(...values), Math.max(...values)];
  const format = (value: number) => formatValue(value, field, options);
  const formatDay = (day: number) =>
    formatCalendarDay(Math.floor(day), options.locale, { dateStyle: 'long' });
  return {
    points,
    minLabel: format(min),
    maxLabel: format(max),
    summary:
      `${field.label}: ${points.length} points from ${formatDay(first.day)} (${format(first.value)}) ` +
      `to ${formatDay(last.day)} (${format(last.value)}).`,
    xTicks: [first.day, last.day],
    yTicks: min === max ? [min] : [min, max],
    formatX: (day) => formatCalendarDay(Math.floor(day), options.locale, { month: 'short', year: 'numeric' }),
    formatY: (value) => compactValue(value, field, options),
  };
}

/** Axis labels: "$1.8M", "34.7%", "1.2K". */
export function compactValue(value: number, field: FieldConfig, options: ViewOptions): string {
  if (field.type === 'percent') {
    return `${new Intl.NumberFormat(options.locale, { maximumFractionDigits: 1 }).format(value)}%`;
  }
  const currency: Intl.NumberFormatOptions =
    field.type === 'currency' ? { style: 'currency', currency: options.currency ?? 'USD' } : {};
  return new Intl.NumberFormat(options.locale, {
    ...currency,
    notation: 'compact',
    maximumFractionDigits: 1,
  }).format(value);
}
