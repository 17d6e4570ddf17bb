/**
 * CiviCRM keeps date-times as wall-clock text in its own time zone ("YYYY-MM-DD HH:MM:SS", no
 * offset on the wire). These pure functions convert between that text and instants, given the
 * CRM's IANA zone (README, "Dates and time zones").
 */
import { BoundedCache } from './bounded-cache';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** A calendar day and a time of day, as a clock on the wall reads them. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The instant on the wall clock of an IANA time zone. */
export function wallClockIn(instant: number, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts['year'] ?? 1970,
    month: parts['month'] ?? 1,
    day: parts['day'] ?? 1,
    hour: parts['hour'] ?? 0,
    minute: parts['minute'] ?? 0,
    second: parts['second'] ?? 0,
  };
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The instant as the CRM's wall clock: "YYYY-MM-DD HH:MM:SS". */
export function toCrmLocalTime(instant: Date, timeZone: string): string {
  const clock = wallClockIn(instant.getTime(), timeZone);
  return (
    `${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)} ` +
    `${pad(clock.hour)}:${pad(clock.minute)}:${pad(clock.second)}`
  );
}

const CRM_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
/** The compact form CiviCRM answers a create with: YYYYMMDDhhmmss. */
const CRM_COMPACT_DATE_TIME = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/;

/**
 * A CRM wall-clock date-time as an ISO 8601 instant (UTC, `Z`). Text that is not a date-time is
 * returned as it is. In the hour a daylight-saving change repeats, the earlier instant wins.
 */
export function crmLocalTimeToIso(value: unknown, timeZone: string): string {
  const text = String(value ?? '');
  // A page reads the same check-in dates on every request, and each conversion asks Intl for the
  // zone's offset twice (a tenth of the large report's service time): remember them. The
  // answer depends on the text and the zone alone, which the process never changes.
  return isoOfCrmTime.get(`${timeZone}|${text}`, () => convertCrmLocalTime(text, timeZone));
}

const isoOfCrmTime = new BoundedCache<string, string>(50_000);

function convertCrmLocalTime(text: string, timeZone: string): string {
  const match = CRM_DATE_TIME.exec(text) ?? CRM_COMPACT_DATE_TIME.exec(text);
  if (!match) return text;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  const asIfUtc = Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1, hour ?? 0, minute ?? 0, second ?? 0);
  // The zone's offset at a guess, then at the corrected instant (they differ across a DST change).
  let instant = asIfUtc - offsetAt(asIfUtc, timeZone);
  instant = asIfUtc - offsetAt(instant, timeZone);
  return new Date(instant).toISOString();
}

/** The zone's offset from UTC at an instant, in milliseconds (Chicago in winter: -6 h). */
function offsetAt(instant: number, timeZone: string): number {
  const clock = wallClockIn(instant, timeZone);
  const wall = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** Whether the runtime knows this IANA zone. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}
