import {
  afterNextRender,
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  type ElementRef,
  inject,
  input,
  inputBinding,
  viewChild,
} from '@angular/core';
import { ChartEnvironment } from './chart-environment';
import type { TrendView } from './trend';
import { TrendLineChart } from './trend-line-chart';

/**
 * A small trend chart of a numeric field with its lowest and highest values as captions. The
 * drawing is hidden from assistive technology: the caption says in words what it shows, and the
 * history list right after it holds every value.
 */
@Component({
  selector: 'app-trend-chart',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <figure class="trend">
      <!-- The chart's host: TrendLineChart sizes and styles it. -->
      <div #plot aria-hidden="true"></div>
      <figcaption>
        <span class="visually-hidden">{{ trend().summary }}</span>
        <span class="extreme"
          >Lowest <strong class="tabular">{{ trend().minLabel }}</strong></span
        >
        <span class="extreme"
          >Highest <strong class="tabular">{{ trend().maxLabel }}</strong></span
        >
      </figcaption>
    </figure>
  `,
  styles: `
    .trend {
      margin: 0 0 var(--space-3);
    }
    figcaption {
      display: flex;
      flex-wrap: wrap;
      gap: var(--space-1) var(--space-4);
      font-size: 0.875rem;
      color: var(--color-text-muted);
    }
    strong {
      color: var(--color-text);
    }
  `,
})
export class TrendChart {
  readonly trend = input.required<TrendView>();
  readonly label = input.required<string>();

  private readonly plot = viewChild.required<ElementRef<HTMLElement>>('plot');

  constructor() {
    const environment = inject(ChartEnvironment);
    const destroyRef = inject(DestroyRef);
    // After the first render, so the plot has its size when the chart measures it.
    afterNextRender(() => {
      const chart = environment.render(TrendLineChart, this.plot().nativeElement, [
        inputBinding('trend', this.trend),
        inputBinding('label', this.label),
      ]);
      destroyRef.onDestroy(() => chart.destroy());
    });
  }
}
