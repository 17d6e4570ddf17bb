import type { ReportPayload, StageRank } from '@checkin/contract';
import { NUMERIC_FIELD_TYPES } from '@checkin/contract';
import { formatDate, formatValue, toNumber } from '../core/value-format';
import { CLEARED_LABEL, trendOf, type TrendView, type ViewOptions } from './trend';

/**
 * What the report puts above the detail: the stages as progress, the headline figures with
 * their trend lines. Pure, like report-view.
 */

export type StageState = 'done' | 'current' | 'upcoming';

export interface StageStep {
  rank: StageRank;
  label: string;
  state: StageState;
}

/** Every stage in rank order, the current one marked, those before it done. */
export function stageProgress(report: ReportPayload): StageStep[] {
  const current = report.currentStage.rank;
  return [...report.stages]
    .sort((a, b) => a.rank - b.rank)
    .map((stage) => ({
      rank: stage.rank,
      label: stage.label,
      state: stage.rank < current ? 'done' : stage.rank === current ? 'current' : 'upcoming',
    }));
}

export interface HeadlineRow {
  dateTime: string;
  dateLabel: string;
  valueLabel: string;
}

export interface HeadlineView {
  name: string;
  label: string;
  valueLabel: string;
  dateTime: string;
  dateLabel: string;
  /** "of a $1,850,000.00 goal (92%)", when the figure is measured against a goal with a value. */
  goalLabel: string | null;
  /** 0–100, for the progress bar; null without a goal. */
  goalPercent: number | null;
  /** Null with fewer than two numeric points. */
  trend: TrendView | null;
  /** Every answer, oldest first: the table that says what the trend line draws. */
  rows: HeadlineRow[];
}

/**
 * The configured headline figures (FieldConfig.headline) that have at least one answer, in
 * their configured order.
 */
export function headlineFigures(report: ReportPayload, options: ViewOptions): HeadlineView[] {
  const fields = report.sections.flatMap((section) => section.fields);
  const byName = new Map(fields.map((field) => [field.name, field]));
  return fields
    .filter((field) => field.headline && NUMERIC_FIELD_TYPES.includes(field.type))
    .sort((a, b) => (a.headline?.order ?? 0) - (b.headline?.order ?? 0))
    .flatMap((field): HeadlineView[] => {
      const entries = report.fieldHistory[field.name] ?? [];
      const latest = entries[0];
      if (!latest) return [];
      const goalField = field.headline?.goalField ? byName.get(field.headline.goalField) : undefined;
      const goal = goalField ? toNumber(report.fieldHistory[goalField.name]?.[0]?.value ?? null) : null;
      const value = toNumber(latest.value);
      const percent = goal && goal > 0 && value !== null ? Math.round((value / goal) * 100) : null;
      return [
        {
          name: field.name,
          label: field.label,
          valueLabel: latest.value === null ? CLEARED_LABEL : formatValue(latest.value, field, options),
          dateTime: latest.date,
          dateLabel: formatDate(latest.date, options.locale),
          goalLabel:
            goal !== null && goalField
              ? `of a ${formatValue(goal, goalField, options)} goal` +
                (percent === null ? '' : ` (${percent}%)`)
              : null,
          goalPercent: percent === null ? null : Math.min(100, Math.max(0, percent)),
          trend: trendOf(field, entries, options),
          rows: [...entries].reverse().map((entry) => ({
            dateTime: entry.date,
            dateLabel: formatDate(entry.date, options.locale),
            valueLabel: entry.value === null ? CLEARED_LABEL : formatValue(entry.value, field, options),
          })),
        },
      ];
    });
}
