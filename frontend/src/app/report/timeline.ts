import type { FieldConfig, ReportPayload, StageRank } from '@checkin/contract';
import { calendarDay, firstDayOfYear, formatCalendarDay, isoDateOfDay, yearOfDay } from '../shared/dates';

/**
 * The timeline over the date fields of the stage sections (docs/product-rules.md, "Report"): one lane per
 * stage rank 1–5, each field's latest date as a marker, an axis from the earliest
 * date to the later of the latest date and Date_Opened, Date_Opened emphasized, and today marked
 * when it falls on the axis. Positions are percentages of the axis, computed from calendar days,
 * so no time zone moves a marker.
 */
export interface TimelineView {
  lanes: TimelineLane[];
  startLabel: string;
  endLabel: string;
  ticks: TimelineTick[];
  opened: TimelineLine | null;
  today: TimelineLine | null;
  /** What the timeline shows, in words. */
  summary: string;
}

export interface TimelineLane {
  rank: StageRank;
  title: string;
  /** Empty for a stage with no date answered yet: its lane is still drawn, and says so. */
  markers: TimelineMarker[];
}

export interface TimelineMarker {
  fieldName: string;
  label: string;
  /** YYYY-MM-DD, for `<time datetime>`. */
  isoDate: string;
  dateLabel: string;
  /** 0 (axis start) to 100 (axis end). */
  position: number;
  emphasized: boolean;
  /** Markers in the right part of the axis put their caption on their left. */
  captionSide: 'before' | 'after';
}

export interface TimelineTick {
  position: number;
  label: string;
}

export interface TimelineLine {
  position: number;
  dateLabel: string;
}

/** Named in docs/product-rules.md, "Report": the opening date is emphasized and always on the axis. */
export const DATE_OPENED_FIELD = 'Date_Opened';
const MAX_YEAR_TICKS = 8;
const STAGE_LANE_RANKS: readonly StageRank[] = [1, 2, 3, 4, 5];
const CAPTION_FLIP_POSITION = 55;

interface DatedField {
  field: FieldConfig;
  day: number;
}

/**
 * Null when no date field of the stage sections has an answer. Otherwise every stage rank 1–5
 * has its lane, dated or not, so the picture of progress keeps its shape from one check-in to
 * the next (docs/product-rules.md, "Report": one lane per stage rank).
 */
export function buildTimeline(report: ReportPayload, today: number, locale: string): TimelineView | null {
  const lanes = STAGE_LANE_RANKS.map((rank) => {
    const section = report.sections.find((candidate) => candidate.rank === rank);
    const title =
      section?.title ?? report.stages.find((stage) => stage.rank === rank)?.label ?? `Stage ${rank}`;
    return { rank, title, dated: section ? datedFields(section.fields, report) : [] };
  });
  const days = lanes.flatMap(({ dated }) => dated.map((item) => item.day));
  if (days.length === 0) return null;

  const opened = latestDay(report, DATE_OPENED_FIELD);
  const start = Math.min(...days);
  const end = Math.max(...days, ...(opened === null ? [] : [opened]));
  const position = (day: number) => (end === start ? 50 : ((day - start) / (end - start)) * 100);
  const longDate = (day: number) => formatCalendarDay(day, locale, { dateStyle: 'long' });

  return {
    lanes: lanes.map(({ rank, title, dated }) => ({
      rank,
      title,
      markers: dated.map(({ field, day }) => marker(field, day, position(day), longDate(day))),
    })),
    startLabel: longDate(start),
    endLabel: longDate(end),
    ticks: yearTicks(start, end).map((day) => ({ position: position(day), label: String(yearOfDay(day)) })),
    opened: opened === null ? null : { position: position(opened), dateLabel: longDate(opened) },
    today: today >= start && today <= end ? { position: position(today), dateLabel: longDate(today) } : null,
    summary: summaryOf(
      days.length,
      longDate(start),
      longDate(end),
      opened === null ? null : longDate(opened),
    ),
  };
}

/** The section's date fields with a readable latest answer, in date order. */
function datedFields(fields: readonly FieldConfig[], report: ReportPayload): DatedField[] {
  return fields
    .filter((field) => field.type === 'date')
    .flatMap((field) => {
      const day = latestDay(report, field.name);
      return day === null ? [] : [{ field, day }];
    })
    .sort((a, b) => a.day - b.day || a.field.label.localeCompare(b.field.label));
}

/** A field's latest answer (the newest entry) as a calendar day. */
function latestDay(report: ReportPayload, fieldName: string): number | null {
  const latest = report.fieldHistory[fieldName]?.[0]?.value;
  return typeof latest === 'string' ? calendarDay(latest) : null;
}

function marker(field: FieldConfig, day: number, position: number, dateLabel: string): TimelineMarker {
  return {
    fieldName: field.name,
    label: field.label,
    isoDate: isoDateOfDay(day),
    dateLabel,
    position,
    emphasized: field.name === DATE_OPENED_FIELD,
    captionSide: position > CAPTION_FLIP_POSITION ? 'before' : 'after',
  };
}

/** 1 January of each year inside the axis, thinned out to a readable number. */
export function yearTicks(start: number, end: number): number[] {
  const years: number[] = [];
  for (let year = yearOfDay(start); year <= yearOfDay(end); year += 1) {
    const day = firstDayOfYear(year);
    if (day > start && day <= end) years.push(day);
  }
  const step = Math.ceil(years.length / MAX_YEAR_TICKS);
  return years.filter((_, index) => index % step === 0);
}

function summaryOf(count: number, start: string, end: string, opened: string | null): string {
  const dates = count === 1 ? `1 date, ${start}` : `${count} dates from ${start} to ${end}`;
  return opened === null ? `${dates}.` : `${dates}. The store opened on ${opened}.`;
}
