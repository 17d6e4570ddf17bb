import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import type { FieldValue, StaffFieldReport, StaffMatrix as StaffMatrixData } from '@checkin/contract';
import { formatValue } from '../core/value-format';

/**
 * Stage 5's Y1_Q<n>_<metric> fields, read-only: one row per metric, one column per quarter,
 * each cell the latest value, with the value it replaced when a quarter was restated.
 */
@Component({
  selector: 'app-staff-matrix',
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
                    @if (replaced(cell); as previous) {
                      <span class="was">was {{ format(previous, cell) }}</span>
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
    .scroller {
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
    .was {
      display: block;
      font-size: 0.8rem;
      color: var(--color-text-muted);
    }
  `,
})
export class StaffMatrix {
  readonly matrix = input.required<StaffMatrixData>();
  readonly captionId = input.required<string>();

  protected format(value: FieldValue, cell: StaffFieldReport): string {
    return formatValue(value, cell.field);
  }

  /** The value a restatement replaced: the entry before the latest, when it differs. */
  protected replaced(cell: StaffFieldReport): FieldValue {
    const previous = cell.history[1]?.value;
    return previous !== undefined && previous !== cell.latest ? previous : null;
  }
}
