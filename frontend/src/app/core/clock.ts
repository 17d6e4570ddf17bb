/**
 * One clock style for every time the pages show: the reader's own locale (12- or 24-hour as
 * their browser says), so a draft's "saved at" and a receipt's time read the same way.
 */

/** "6:00 PM" or "18:00", by the reader's locale. */
export function formatClockTime(date: Date, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(date);
}

/** "November 23, 2026 at 6:00 PM" or "23 November 2026 at 18:00", by the reader's locale. */
export function formatDateAndTime(date: Date, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }).format(date);
}

/** "November 23, 2026", by the reader's locale. */
export function formatLongDate(date: Date, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(date);
}

/** "March 2024": when an answer was last given, to the month. */
export function formatMonthYear(date: Date, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric' }).format(date);
}
