import { ChangeDetectionStrategy, Component, input, output } from '@angular/core';
import type { TimelineView } from './timeline';

/**
 * The timeline card: a lane per stage, a row per date field with its latest date as a marker on
 * a shared axis. Markers are buttons named by their field and date that lead to the field's
 * history, so the timeline reads as nested lists by screen reader and works by keyboard; the
 * axis drawing itself is described by the summary sentence.
 */
@Component({
  selector: 'app-report-timeline',
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './report-timeline.html',
  styles: `
    .legend {
      display: flex;
      flex-wrap: wrap;
      gap: var(--space-1) var(--space-4);
      list-style: none;
      margin: 0 0 var(--space-2);
      padding: 0;
      font-size: 0.875rem;
    }
    .legend li {
      display: inline-flex;
      align-items: center;
      gap: var(--space-2);
    }
    .hint {
      font-size: 0.875rem;
      color: var(--color-text-muted);
    }
    .lanes,
    .rows {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    .lane + .lane {
      margin-top: var(--space-3);
    }
    .lane-title {
      font-size: 0.95rem;
      margin: 0 0 var(--space-1);
      padding-bottom: var(--space-1);
      border-bottom: 1px solid var(--color-border);
    }
    .row {
      display: grid;
      grid-template-columns: minmax(8rem, 13rem) 1fr;
      column-gap: var(--space-3);
      align-items: center;
    }
    .row-label {
      font-size: 0.875rem;
      color: var(--color-text-muted);
    }
    .track {
      position: relative;
      height: 2.5rem;
      margin: 0 0.75rem;
    }
    .empty-lane {
      margin: 0;
    }
    .empty-lane .row-label {
      font-style: italic;
    }
    /* An empty lane's track is drawn dashed: the stage is on the picture, with nothing on it yet. */
    .empty-lane .track::before {
      content: '';
      position: absolute;
      left: -0.75rem;
      right: -0.75rem;
      top: 50%;
      border-top: 2px dashed var(--color-border);
    }
    .rows .track::before {
      content: '';
      position: absolute;
      left: -0.75rem;
      right: -0.75rem;
      top: 50%;
      border-top: 2px solid var(--color-border);
    }
    .line {
      position: absolute;
      top: 0;
      bottom: 0;
      border-left: 2px solid var(--color-accent);
    }
    .line.today {
      border-left: 2px dashed var(--color-focus);
    }
    .marker {
      position: absolute;
      top: 50%;
      transform: translate(-0.75rem, -50%);
      display: inline-flex;
      align-items: center;
      gap: var(--space-1);
      min-width: 1.5rem;
      min-height: 1.5rem;
      padding: 0 var(--space-1) 0 0;
      border: 0;
      border-radius: var(--radius);
      background: none;
      color: var(--color-text);
      font-weight: 400;
      white-space: nowrap;
    }
    .marker.before {
      flex-direction: row-reverse;
      padding: 0 0 0 var(--space-1);
      transform: translate(0.75rem, -50%);
    }
    .dot {
      display: inline-grid;
      place-items: center;
      width: 1.5rem;
      height: 1.5rem;
      flex: none;
    }
    .dot::before,
    .symbol {
      content: '';
      display: inline-block;
      width: 0.75rem;
      height: 0.75rem;
      border-radius: 50%;
      background: var(--color-accent);
      box-shadow: 0 0 0 2px var(--color-surface);
    }
    .emphasized .dot::before,
    .symbol.diamond {
      width: 1rem;
      height: 1rem;
      border-radius: 2px;
      transform: rotate(45deg);
      background: var(--color-accent-strong);
    }
    .caption {
      font-size: 0.8125rem;
      padding: 0 2px;
      background: var(--color-surface);
    }
    .emphasized .caption {
      font-weight: 700;
    }
    .symbol.today {
      width: 0;
      height: 1rem;
      border-radius: 0;
      background: none;
      box-shadow: none;
      border-left: 2px dashed var(--color-focus);
    }
    .axis {
      margin-top: var(--space-2);
      font-size: 0.75rem;
      color: var(--color-text-muted);
    }
    .axis .track {
      height: 1.25rem;
      border-top: 2px solid var(--color-text-muted);
    }
    .tick {
      position: absolute;
      top: 0;
      transform: translateX(-50%);
      padding-top: 0.25rem;
      border-left: 1px solid var(--color-text-muted);
      padding-left: 0.25rem;
    }
    .ends {
      display: flex;
      justify-content: space-between;
      gap: var(--space-2);
    }
    @media (max-width: 40rem) {
      .row {
        grid-template-columns: 1fr;
      }
      .axis > span {
        display: none;
      }
    }
  `,
})
export class ReportTimeline {
  readonly timeline = input.required<TimelineView>();
  /** A marker was activated: the name of its field. */
  readonly selectField = output<string>();
}
