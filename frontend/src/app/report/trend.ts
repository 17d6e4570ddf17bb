import { type FieldConfig, type FieldHistoryEntry } from '@checkin/contract';
import { DEFAULT_VALUE_FORMAT } from '@checkin/contract';
import { formatValue, toNumber } from '../core/value-format';
import { numberFormat } from '../core/intl-formats';
import { dayAndTime, formatCalendarDay, SECOND_IN_DAYS } from '../shared/dates';

/**
 * A numeric field's answers as a trend: the points a chart draws and the words that say what it
 * shows. Shared by the field entries and the headline figures (report-view, report-summary).
 */

/** How a cleared answer reads in the history. */
export const CLEARED_LABEL = 'Cleared';

export interface ViewOptions {
  locale: string;
  currency?: string;
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
    return `${numberFormat(options.locale, { maximumFractionDigits: 1 }).format(value)}%`;
  }
  const currency: Intl.NumberFormatOptions =
    field.type === 'currency'
      ? { style: 'currency', currency: options.currency ?? DEFAULT_VALUE_FORMAT.currency }
      : {};
  return numberFormat(options.locale, {
    ...currency,
    notation: 'compact',
    maximumFractionDigits: 1,
  }).format(value);
}
