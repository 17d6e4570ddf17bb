import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import type { FieldReport, FieldValue, QuarterlyMatrix } from '@checkin/contract';
import { formatDate, type FormatContext, formatValue } from '../core/value-format';
import { SiteValueFormat } from '../core/site-value-format';

/**
 * Stage 5's Y1_Q<n>_<metric> fields as the server built them (same metrics, labels, order and
 * quarters on the owner's report and the staff page): one row per metric, one column per
 * quarter, each cell the latest value with its date, and the value it replaced when a quarter
 * was restated. An empty or cleared cell reads "No value" to a screen reader.
 */
@Component({
  selector: 'app-quarterly-matrix',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <div class="scroller" role="region" [attr.aria-labelledby]="captionId()" tabindex="0">
      <table>
        <caption [id]="captionId()">
          First year by quarter
        </caption>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            @for (quarter of matrix().quarters; track quarter) {
              <th scope="col">{{ quarter }}</th>
            }
          </tr>
        </thead>
        <tbody>
          @for (row of matrix().rows; track row.metric) {
            <tr>
              <th scope="row">{{ row.label }}</th>
              @for (cell of row.cells; track $index) {
                <td class="tabular">
                  @if (cell && cell.latest !== null) {
                    {{ format(cell.latest, cell) }}
                    @if (cell.history[0]; as latest) {
                      <time class="as-of" [attr.datetime]="latest.date">{{ date(latest.date) }}</time>
                    }
                    @if (replaced(cell); as previous) {
                      <span class="was">&#32;was {{ format(previous, cell) }}</span>
                    }
                  } @else {
                    <span aria-hidden="true">–</span><span class="visually-hidden">No value</span>
                  }
                </td>
              }
            </tr>
          }
        </tbody>
      </table>
    </div>
  `,
  styles: `
    /* Positioned, so the visually hidden texts of its cells are placed (and clipped) inside it
       rather than against the page, which they would widen on a phone. */
    .scroller {
      position: relative;
      overflow-x: auto;
      margin-top: var(--space-3);
    }
    table {
      border-collapse: collapse;
      width: 100%;
      min-width: 32rem;
    }
    caption {
      text-align: start;
      font-weight: 600;
      padding-bottom: var(--space-2);
    }
    th,
    td {
      padding: var(--space-2) var(--space-3);
      border-bottom: 1px solid var(--color-border);
      text-align: end;
      vertical-align: top;
    }
    th[scope='row'],
    thead th:first-child {
      text-align: start;
    }
    thead th {
      background: var(--color-surface-muted);
    }
    .as-of,
    .was {
      display: block;
      font-size: 0.8rem;
      color: var(--color-text-muted);
    }
  `,
})
export class QuarterlyMatrixTable {
  readonly matrix = input.required<QuarterlyMatrix>();
  readonly captionId = input.required<string>();
  readonly formatContext = input<FormatContext>({});
  private readonly siteFormat = inject(SiteValueFormat);
  /** The site's currency and locale, unless the page gives its own. */
  private readonly context = computed(() => ({ ...this.siteFormat.context(), ...this.formatContext() }));

  protected format(value: FieldValue, cell: FieldReport): string {
    return formatValue(value, cell.field, this.context());
  }

  protected date(date: string): string {
    return formatDate(date, this.context().locale);
  }

  /** The value a restatement replaced: the entry before the latest, when it differs. */
  protected replaced(cell: FieldReport): FieldValue {
    const previous = cell.history[1]?.value;
    return previous !== undefined && previous !== cell.latest ? previous : null;
  }
}
