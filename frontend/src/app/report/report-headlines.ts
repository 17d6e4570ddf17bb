import { ChangeDetectionStrategy, Component, computed, input, signal } from '@angular/core';
import { DisclosureButton } from '../shared/disclosure-button';
import type { HeadlineView } from './report-summary';
import type { TrendView } from './trend';

/** A trend as an SVG polyline in a 100 × 32 box: x by time, y by value (highest at the top). */
export function sparklinePoints(trend: TrendView): string {
  const days = trend.points.map((point) => point.day);
  const values = trend.points.map((point) => point.value);
  const [minX, maxX] = [Math.min(...days), Math.max(...days)];
  const [minY, maxY] = [Math.min(...values), Math.max(...values)];
  const x = (day: number) => (maxX === minX ? 50 : ((day - minX) / (maxX - minX)) * 100);
  // A flat series is drawn across the middle; otherwise 2 units of margin keep the stroke inside.
  const y = (value: number) => (maxY === minY ? 16 : 30 - ((value - minY) / (maxY - minY)) * 28);
  return trend.points.map((point) => `${round(x(point.day))},${round(y(point.value))}`).join(' ');
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * One headline figure: its latest value and date, its goal when it has one, a small trend line
 * (drawn as plain SVG, hidden from assistive technology) and a button that shows every value
 * as a table: the trend in words and numbers for those who cannot see the line.
 */
@Component({
  selector: 'app-headline-figure',
  imports: [DisclosureButton],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './report-headlines.html',
  styles: `
    :host {
      display: flex;
      flex-direction: column;
      gap: var(--space-1);
      height: 100%;
      padding: var(--space-3);
      border: 1px solid var(--color-border);
      border-radius: var(--radius);
      background: var(--color-surface);
    }
    .label {
      margin: 0;
      font-size: 0.95rem;
      color: var(--color-text-muted);
    }
    /* Sized so "$1,350,000.00" fits a quarter of the desktop column without breaking. */
    .value {
      margin: 0;
      font-size: 1.375rem;
      font-weight: 700;
      overflow-wrap: break-word;
    }
    .as-of,
    .goal {
      margin: 0;
      font-size: 0.875rem;
      color: var(--color-text-muted);
    }
    .meter {
      height: 0.5rem;
      border-radius: 0.25rem;
      background: var(--color-accent-soft);
      overflow: hidden;
    }
    .meter span {
      display: block;
      height: 100%;
      background: var(--color-accent);
    }
    .sparkline {
      width: 100%;
      height: 2.5rem;
      margin-top: var(--space-1);
      overflow: visible;
    }
    .sparkline polyline {
      fill: none;
      stroke: var(--color-accent);
      stroke-width: 2.5px;
      stroke-linejoin: round;
      stroke-linecap: round;
      vector-effect: non-scaling-stroke;
    }
    app-disclosure-button {
      align-self: flex-start;
      margin-top: auto;
    }
    table {
      width: 100%;
      margin-top: var(--space-2);
      border-collapse: collapse;
      font-size: 0.875rem;
    }
    th,
    td {
      padding: var(--space-1) 0;
      border-bottom: 1px solid var(--color-border);
      text-align: start;
      font-weight: 400;
    }
    td {
      text-align: end;
    }
    thead th {
      font-weight: 600;
    }
    thead th:last-child {
      text-align: end;
    }
  `,
})
export class HeadlineFigure {
  readonly headline = input.required<HeadlineView>();

  protected readonly showTable = signal(false);
  protected readonly tableId = computed(() => `headline-${this.headline().name}-table`);
  protected readonly points = computed(() => {
    const trend = this.headline().trend;
    return trend ? sparklinePoints(trend) : '';
  });
}
