/**
 * Every date a page shows, on one calendar: the reader's. Written once, here.
 *
 * - A calendar date (YYYY-MM-DD: a date field's answer) is that day wherever the reader is.
 * - An instant (a check-in's time, ISO 8601 with a zone, as the API answers it) falls on the
 *   reader's own calendar day and clock, so a check-in sent late in the evening shows the same
 *   day in its date, its month, the header's span, the charts and the timeline.
 * - Calendar days are counted as days since 1970-01-01 and formatted in UTC from those parts, so
 *   formatting never moves a day again. Times ("6:00 PM") follow the reader's locale.
 */

import { wallClockIn, type WallClock } from '@checkin/contract';
import { dateTimeFormat } from '../core/intl-formats';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/;
/** An instant (a check-in's time, as the API answers it): it has a zone. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The zone every date and time on the owner pages is shown in: the CRM site's, which the service
 * hands to each page it renders, so a date reads the same before and after the app starts and
 * wherever the owner is (docs/decisions.md, "Dates on owner pages"). Null: the reader's own zone
 * (a page the browser rendered by itself, or a test).
 */
let displayTimeZone: string | null = null;

/** Set once per page (frontend/src/app/core/page-context.ts); an unknown zone leaves the reader's. */
export function setDisplayTimeZone(zone: string | null): void {
  if (zone === null) {
    displayTimeZone = null;
    return;
  }
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    displayTimeZone = zone;
  } catch {
    displayTimeZone = null;
  }
}

/** An instant's calendar day and time of day on the display zone's clock. */
function wallClock(instant: Date): WallClock {
  if (displayTimeZone === null)
    return {
      year: instant.getFullYear(),
      month: instant.getMonth() + 1,
      day: instant.getDate(),
      hour: instant.getHours(),
      minute: instant.getMinutes(),
      second: instant.getSeconds(),
    };
  return wallClockIn(instant.getTime(), displayTimeZone);
}

/** Options for formatting an instant: in the display zone when one is set. */
function inDisplayZone(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormatOptions {
  return displayTimeZone === null ? options : { ...options, timeZone: displayTimeZone };
}

/** Year, month and day: a date or CRM date-time as written, an instant on the display zone's calendar. */
export function calendarDateParts(text: string): { year: number; month: number; day: number } | null {
  if (INSTANT.test(text)) {
    const instant = new Date(text);
    if (Number.isNaN(instant.getTime())) return null;
    const { year, month, day } = wallClock(instant);
    return { year, month, day };
  }
  const match = DATE_ONLY.exec(text) ?? DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return { year, month, day };
}

/** Days since the epoch for a calendar date, for placing dates on an axis without time zones. */
export function calendarDay(text: string): number | null {
  const parts = calendarDateParts(text);
  return parts ? Date.UTC(parts.year, parts.month - 1, parts.day) / 86_400_000 : null;
}

const MS_PER_DAY = 86_400_000;
/** One second as a fraction of a day. */
export const SECOND_IN_DAYS = 1 / 86_400;
const TIME_OF_DAY = /[ T](\d{2}):(\d{2})(?::(\d{2}))?/;

/** "March 2022": a calendar date, a check-in's instant (both as text) or a Date, to the month. */
export function formatMonthYear(value: string | Date, locale?: string): string {
  const parts = calendarDateParts(typeof value === 'string' ? value : value.toISOString());
  if (!parts) return String(value);
  return dateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    Date.UTC(parts.year, parts.month - 1, 1),
  );
}

const ENGLISH_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * "March 2022" inside an English sentence ("Last given March 2022"), as formatMonthYear would
 * write it in English, without an Intl formatter: the form's fields write it while the page
 * hydrates, where making the first formatter costs a phone about 0.1 s (docs/performance.md,
 * "Figures").
 */
export function englishMonthYear(value: string | Date): string {
  const parts = calendarDateParts(typeof value === 'string' ? value : value.toISOString());
  return parts ? `${ENGLISH_MONTHS[parts.month - 1]} ${parts.year}` : String(value);
}

/** The span between two CRM dates by month: "March 2022 – November 2026", or one month alone. */
export function formatMonthSpan(earliest: string, latest: string, locale: string): string {
  const from = formatMonthYear(earliest, locale);
  const to = formatMonthYear(latest, locale);
  return from === to ? from : `${from} – ${to}`;
}

/** A calendar day as a date in the given style ("March 8, 2025", "Mar 2025", "2025"...). */
export function formatCalendarDay(day: number, locale: string, options: Intl.DateTimeFormatOptions): string {
  return dateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(day * MS_PER_DAY);
}

/**
 * A date or date-time as days since 1970-01-01: its calendar day, plus its time of day as a
 * fraction. A CRM date-time is read as written; an instant on the reader's clock.
 */
export function dayAndTime(text: string): number | null {
  const day = calendarDay(text);
  if (day === null) return null;
  if (INSTANT.test(text)) {
    const { hour, minute, second } = wallClock(new Date(text));
    return day + (hour * 3600 + minute * 60 + second) * SECOND_IN_DAYS;
  }
  const time = TIME_OF_DAY.exec(text.slice(10));
  if (!time) return day;
  const seconds = Number(time[1]) * 3600 + Number(time[2]) * 60 + Number(time[3] ?? 0);
  return day + seconds * SECOND_IN_DAYS;
}

/** The calendar day of a date in the display zone: what "today" means on the page. */
export function localCalendarDay(date: Date): number {
  const { year, month, day } = wallClock(date);
  return Date.UTC(year, month - 1, day) / MS_PER_DAY;
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

/** "6:00 PM" or "18:00", by the reader's locale. */
export function formatClockTime(date: Date, locale?: string): string {
  return dateTimeFormat(locale, inDisplayZone({ timeStyle: 'short' })).format(date);
}

/** "November 23, 2026 at 6:00 PM" or "23 November 2026 at 18:00", by the reader's locale. */
export function formatDateAndTime(date: Date, locale?: string): string {
  return dateTimeFormat(locale, inDisplayZone({ dateStyle: 'long', timeStyle: 'short' })).format(date);
}

/** "November 23, 2026", by the reader's locale. */
export function formatLongDate(date: Date, locale?: string): string {
  return dateTimeFormat(locale, inDisplayZone({ dateStyle: 'long' })).format(date);
}
