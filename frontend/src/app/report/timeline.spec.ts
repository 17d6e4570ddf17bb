import type { ReportPayload } from '@checkin/contract';
import { localCalendarDay } from '../shared/dates';
import { buildTimeline, type TimelineView, yearTicks } from './timeline';
import { reportFixture } from './testing/report-fixture';

const day = (iso: string) =>
  Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10))) / 86_400_000;
/** Outside the fixture's axis (2022-03-19 to 2025-03-08). */
const LATER_TODAY = day('2026-11-21');

function timeline(report: ReportPayload = reportFixture(), today = LATER_TODAY): TimelineView {
  const view = buildTimeline(report, today, 'en-US');
  if (!view) throw new Error('no timeline');
  return view;
}

describe('buildTimeline', () => {
  it('has one lane per stage rank 1–5, in rank order, each with its fields’ latest dates', () => {
    const view = timeline();

    expect(view.lanes.map((lane) => [lane.rank, lane.title])).toEqual([
      [1, 'Organizing'],
      [2, 'Feasibility'],
      [3, 'Business planning'],
      [4, 'Capitalization'],
      [5, 'Open'],
    ]);
    expect(view.lanes.map((lane) => lane.markers.map((marker) => [marker.label, marker.dateLabel]))).toEqual([
      [['Date of the first public meeting', 'March 19, 2022']],
      [['Market study completed on', 'September 1, 2023']],
      // Stage 3's date field has no answer: its lane stays, empty.
      [],
      [['Capital campaign launched on', 'June 15, 2024']],
      [['Date opened', 'March 8, 2025']],
    ]);
  });

  it('keeps a lane for a stage whose section is missing, named by its stage option', () => {
    const report = reportFixture();
    report.sections = report.sections.filter((section) => section.rank !== 2);

    const lane = timeline(report).lanes.find((candidate) => candidate.rank === 2);

    expect(lane).toEqual({
      rank: 2,
      title: report.stages.find((stage) => stage.rank === 2)?.label,
      markers: [],
    });
  });

  it('runs the axis from the earliest date to the latest, placing each date by its calendar day', () => {
    const view = timeline();
    const span = day('2025-03-08') - day('2022-03-19');
    const positions = view.lanes.flatMap((lane) => lane.markers.map((marker) => marker.position));

    expect(view.startLabel).toBe('March 19, 2022');
    expect(view.endLabel).toBe('March 8, 2025');
    expect(positions[0]).toBe(0);
    expect(positions[1]).toBeCloseTo(((day('2023-09-01') - day('2022-03-19')) / span) * 100, 10);
    expect(positions[3]).toBe(100);
    expect(view.lanes[0]?.markers[0]?.isoDate).toBe('2022-03-19');
  });

  it('extends the axis to Date_Opened when the store opened after the other dates', () => {
    const report = reportFixture();
    report.sections = report.sections.filter((section) => section.rank !== 5);
    report.fieldHistory['Date_Opened'] = [
      { value: '2026-01-10', date: '2026-01-12T10:00:00', activityId: 1 },
    ];

    const view = timeline(report);

    expect(view.endLabel).toBe('January 10, 2026');
    expect(view.opened).toEqual({ position: 100, dateLabel: 'January 10, 2026' });
    expect(view.lanes.flatMap((lane) => lane.markers).at(-1)?.position).toBeLessThan(100);
  });

  it('emphasizes Date_Opened and says when the store opened', () => {
    const view = timeline();
    const markers = view.lanes.flatMap((lane) => lane.markers);

    expect(markers.filter((marker) => marker.emphasized).map((marker) => marker.fieldName)).toEqual([
      'Date_Opened',
    ]);
    expect(view.summary).toBe(
      '4 dates from March 19, 2022 to March 8, 2025. The store opened on March 8, 2025.',
    );
  });

  it('marks today only when it falls on the axis', () => {
    expect(timeline(reportFixture(), LATER_TODAY).today).toBeNull();
    expect(timeline(reportFixture(), day('2022-03-18')).today).toBeNull();

    const inRange = timeline(reportFixture(), day('2023-09-01'));

    expect(inRange.today).toEqual({
      position: inRange.lanes[1]?.markers[0]?.position,
      dateLabel: 'September 1, 2023',
    });
  });

  it('ticks every 1 January inside the axis', () => {
    expect(timeline().ticks.map((tick) => tick.label)).toEqual(['2023', '2024', '2025']);
    expect(timeline().ticks[0]?.position).toBeCloseTo(
      ((day('2023-01-01') - day('2022-03-19')) / (day('2025-03-08') - day('2022-03-19'))) * 100,
      10,
    );
    expect(yearTicks(day('2000-06-01'), day('2030-06-01'))).toHaveLength(8);
  });

  it('puts captions of markers in the right part of the axis on their left', () => {
    const markers = timeline().lanes.flatMap((lane) => lane.markers);

    expect(markers.map((marker) => marker.captionSide)).toEqual(['after', 'after', 'before', 'before']);
  });

  it('centers a single date and ignores answers that are not dates', () => {
    const report = reportFixture();
    report.fieldHistory = {
      Market_study_date: [{ value: '2023-09-01', date: '2023-09-27T19:00:00', activityId: 1 }],
      Organizing_meeting_date: [{ value: 'soon', date: '2022-04-10T19:30:00', activityId: 2 }],
    };

    const view = timeline(report);

    expect(view.lanes.flatMap((lane) => lane.markers).map((marker) => marker.position)).toEqual([50]);
    expect(view.summary).toBe('1 date, September 1, 2023.');
  });

  it('is absent when no date field has an answer', () => {
    expect(buildTimeline({ ...reportFixture(), fieldHistory: {} }, LATER_TODAY, 'en-US')).toBeNull();
  });
});

describe('localCalendarDay', () => {
  it('takes the reader’s local date, late in the evening as early in the morning', () => {
    expect(localCalendarDay(new Date(2025, 2, 8, 23, 59))).toBe(day('2025-03-08'));
    expect(localCalendarDay(new Date(2025, 2, 8, 0, 1))).toBe(day('2025-03-08'));
  });
});
