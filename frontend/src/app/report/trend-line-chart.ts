import { ChangeDetectionStrategy, Component, computed, input, ViewEncapsulation } from '@angular/core';
import { type Color, LineChartModule, type MultiSeries, ScaleType } from '@swimlane/ngx-charts';
import type { TrendView } from './trend';

/** Drawn in the accent color of the light theme; the stylesheet below follows the dark one. */
const SCHEME: Color = {
  name: 'report-trend',
  selectable: false,
  group: ScaleType.Ordinal,
  domain: ['#2f6b3b'],
};

/**
 * The ngx-charts line itself. Created by TrendChart through ChartEnvironment (it needs the
 * animation renderer); everything a reader needs is also in TrendChart's caption.
 */
@Component({
  selector: 'app-trend-line-chart',
  imports: [LineChartModule],
  changeDetection: ChangeDetectionStrategy.OnPush,
  // ngx-charts draws its own SVG: its classes are styled from here, under this component's class.
  encapsulation: ViewEncapsulation.None,
  template: `
    <ngx-charts-line-chart
      [results]="results()"
      [scheme]="scheme"
      [xAxis]="true"
      [yAxis]="true"
      [xAxisTicks]="trend().xTicks"
      [yAxisTicks]="trend().yTicks"
      [xAxisTickFormatting]="trend().formatX"
      [yAxisTickFormatting]="trend().formatY"
      [autoScale]="true"
      [roundDomains]="false"
      [tooltipDisabled]="true"
      [animations]="animate"
    />
  `,
  host: { class: 'trend-line-chart' },
  styles: `
    .trend-line-chart {
      display: block;
      height: 9rem;
      max-width: 36rem;
    }
    .trend-line-chart .ngx-charts text {
      fill: var(--color-text-muted);
      font-size: 0.75rem;
    }
    .trend-line-chart .ngx-charts .line-series .line {
      stroke: var(--color-accent);
      stroke-width: 2.5px;
    }
    .trend-line-chart .ngx-charts .gridline-path {
      stroke: var(--color-border);
    }
  `,
})
export class TrendLineChart {
  readonly trend = input.required<TrendView>();
  readonly label = input.required<string>();

  protected readonly scheme = SCHEME;
  /** The line draws itself in, unless the reader asked for less motion. */
  protected readonly animate = !matchMedia('(prefers-reduced-motion: reduce)').matches;
  protected readonly results = computed<MultiSeries>(() => [
    {
      name: this.label(),
      series: this.trend().points.map((point) => ({ name: point.day, value: point.value })),
    },
  ]);
}
