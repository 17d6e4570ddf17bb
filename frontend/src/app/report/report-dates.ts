import { calendarDateParts, calendarDay } from '../core/value-format';

/**
 * Calendar arithmetic for the report's header, charts and timeline. Dates are handled as
 * calendar days (days since 1970-01-01, counted in UTC) and formatted in UTC, so the browser's
 * time zone can never move a date to the day before or after.
 */

const MS_PER_DAY = 86_400_000;
/** One second as a fraction of a day. */
export const SECOND_IN_DAYS = 1 / 86_400;
const TIME_OF_DAY = /[ T](\d{2}):(\d{2})(?::(\d{2}))?/;

/** "March 2022" for a CRM date or date-time. */
export function formatMonthYear(text: string, locale: string): string {
  const parts = calendarDateParts(text);
  if (!parts) return text;
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    Date.UTC(parts.year, parts.month - 1, 1),
  );
}

/** The span between two CRM dates by month: "March 2022 – November 2026", or one month alone. */
export function formatMonthSpan(earliest: string, latest: string, locale: string): string {
  const from = formatMonthYear(earliest, locale);
  const to = formatMonthYear(latest, locale);
  return from === to ? from : `${from} – ${to}`;
}

/** A calendar day as a date in the given style ("March 8, 2025", "Mar 2025", "2025"...). */
export function formatCalendarDay(day: number, locale: string, options: Intl.DateTimeFormatOptions): string {
  return new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(day * MS_PER_DAY);
}

/**
 * A CRM date or date-time as days since 1970-01-01: its calendar day, plus its wall-clock time
 * of day as a fraction. The time is read as written (no time zone), like the day.
 */
export function dayAndTime(text: string): number | null {
  const day = calendarDay(text);
  if (day === null) return null;
  const time = TIME_OF_DAY.exec(text.slice(10));
  if (!time) return day;
  const seconds = Number(time[1]) * 3600 + Number(time[2]) * 60 + Number(time[3] ?? 0);
  return day + seconds * SECOND_IN_DAYS;
}

/** The calendar day of a date's local year, month and day: what "today" means to the reader. */
export function localCalendarDay(date: Date): number {
  return Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) / MS_PER_DAY;
}

/** The calendar day of 1 January of a year. */
export function firstDayOfYear(year: number): number {
  return Date.UTC(year, 0, 1) / MS_PER_DAY;
}

/** YYYY-MM-DD of a calendar day. */
export function isoDateOfDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** The year a calendar day falls in. */
export function yearOfDay(day: number): number {
  return new Date(day * MS_PER_DAY).getUTCFullYear();
}
