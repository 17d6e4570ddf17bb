import { formatDate } from '../core/value-format';
import {
  calendarDay,
  dayAndTime,
  englishMonthYear,
  formatDateAndTime,
  formatMonthSpan,
  formatMonthYear,
  localCalendarDay,
  setDisplayTimeZone,
} from './dates';

/**
 * One calendar on a page: a check-in sent late in the evening in Toronto (03:30 UTC the next day)
 * is on the reader's day everywhere, in its date, its month and its place on a chart. The reader's
 * zone is the process's: run with `TZ=America/Toronto` to see the evening case (under TZ=UTC the
 * checks still hold, on UTC's calendar).
 */
describe('dates: one calendar, the reader’s', () => {
  const LATE_EVENING_IN_TORONTO = '2026-12-01T03:30:00.000Z'; // 30 November, 22:30 in Toronto
  const reader = new Date(LATE_EVENING_IN_TORONTO);
  const readerDay = `${reader.getFullYear()}-${String(reader.getMonth() + 1).padStart(2, '0')}-${String(reader.getDate()).padStart(2, '0')}`;
  const readerMonth = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' }).format(reader);

  it('gives an instant the reader’s day in every form: date, month, span and chart position', () => {
    expect(formatDate(LATE_EVENING_IN_TORONTO, 'en-US')).toBe(formatDate(readerDay, 'en-US'));
    expect(formatMonthYear(LATE_EVENING_IN_TORONTO, 'en-US')).toBe(readerMonth);
    expect(formatMonthSpan('2026-11-02T15:00:00.000Z', LATE_EVENING_IN_TORONTO, 'en-US')).toBe(
      readerMonth === 'November 2026' ? readerMonth : `November 2026 – ${readerMonth}`,
    );
    expect(calendarDay(LATE_EVENING_IN_TORONTO)).toBe(calendarDay(readerDay));
    const readerHours = reader.getHours() + reader.getMinutes() / 60;
    expect(dayAndTime(LATE_EVENING_IN_TORONTO)).toBeCloseTo(
      (calendarDay(readerDay) ?? 0) + readerHours / 24,
      6,
    );
  });

  it('never moves a calendar date or a CRM wall-clock date-time', () => {
    expect(formatDate('2026-11-30', 'en-US')).toBe('November 30, 2026');
    expect(formatMonthYear('2026-12-01 00:15:00', 'en-US')).toBe('December 2026');
    expect(dayAndTime('2026-12-01 06:00:00')).toBeCloseTo((calendarDay('2026-12-01') ?? 0) + 0.25, 6);
  });

  it('takes a Date too, with one signature', () => {
    expect(formatMonthYear(reader, 'en-US')).toBe(readerMonth);
  });

  it('writes the month of an English sentence as English Intl would, on the same calendar', () => {
    expect(englishMonthYear(LATE_EVENING_IN_TORONTO)).toBe(readerMonth);
    expect(englishMonthYear(reader)).toBe(readerMonth);
    for (let month = 1; month <= 12; month += 1) {
      const day = `2026-${String(month).padStart(2, '0')}-15`;
      expect(englishMonthYear(day)).toBe(formatMonthYear(day, 'en-US'));
    }
    expect(englishMonthYear('someday')).toBe('someday');
  });
});

/**
 * The site's zone, once the page names it (docs/decisions.md, "Dates on owner pages"): the same
 * day and time whatever the reader's zone (the front-end specs run under several, see
 * tools/run-tests.mjs), as the service rendered it.
 */
describe('dates: in the site’s zone when the page names one', () => {
  const LATE_EVENING_IN_TORONTO = '2026-12-01T03:30:00.000Z'; // 30 November, 22:30 in Toronto

  afterEach(() => setDisplayTimeZone(null));

  it('gives an instant the site’s day and time, whatever the reader’s zone', () => {
    setDisplayTimeZone('America/Toronto');
    expect(calendarDay(LATE_EVENING_IN_TORONTO)).toBe(calendarDay('2026-11-30'));
    expect(formatDate(LATE_EVENING_IN_TORONTO, 'en-US')).toBe('November 30, 2026');
    expect(formatMonthYear(LATE_EVENING_IN_TORONTO, 'en-US')).toBe('November 2026');
    expect(dayAndTime(LATE_EVENING_IN_TORONTO)).toBeCloseTo((calendarDay('2026-11-30') ?? 0) + 22.5 / 24, 6);
    expect(formatDateAndTime(new Date(LATE_EVENING_IN_TORONTO), 'en-US')).toBe(
      'November 30, 2026 at 10:30 PM',
    );
    expect(localCalendarDay(new Date(LATE_EVENING_IN_TORONTO))).toBe(calendarDay('2026-11-30'));
    setDisplayTimeZone('Pacific/Kiritimati');
    expect(formatDate(LATE_EVENING_IN_TORONTO, 'en-US')).toBe('December 1, 2026');
  });

  it('never moves a calendar date or a CRM wall-clock date-time', () => {
    setDisplayTimeZone('Pacific/Kiritimati');
    expect(formatDate('2026-11-30', 'en-US')).toBe('November 30, 2026');
    expect(formatDate('2026-11-30 23:30:00', 'en-US')).toBe('November 30, 2026');
  });

  it('keeps the reader’s zone for a zone it does not know', () => {
    setDisplayTimeZone('Not/A_Zone');
    const reader = new Date(LATE_EVENING_IN_TORONTO);
    expect(localCalendarDay(reader)).toBe(
      Date.UTC(reader.getFullYear(), reader.getMonth(), reader.getDate()) / 86_400_000,
    );
  });
});
