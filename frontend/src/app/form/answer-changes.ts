import { ChangeDetectionStrategy, Component, input, output } from '@angular/core';
import type { FieldValue, OptionMap } from '@checkin/contract';
import { type FormatContext, formatValue } from '../core/value-format';
import type { AnswerChange, ChangeKind } from './check-in-form';

/** One changed answer as the review step and the receipt show it: plain text, nothing to compute. */
export interface ChangeRow {
  readonly name: string;
  readonly section: string;
  readonly label: string;
  readonly kind: ChangeKind;
  readonly isFile: boolean;
  readonly before: string;
  readonly after: string;
}

export function describeChanges(
  changes: readonly AnswerChange[],
  options: OptionMap,
  format: FormatContext = {},
): ChangeRow[] {
  return changes.map(({ entry, section, kind, before, after }) => {
    const text = (value: FieldValue) =>
      formatValue(value, entry.field, { ...format, options: options[entry.field.name] }) || 'Not answered';
    return {
      name: entry.field.name,
      section: section.title,
      label: entry.field.label,
      kind,
      isFile: entry.kind === 'file',
      before: text(before),
      after: text(after),
    };
  });
}

/**
 * The answers a check-in changes, in the form's order: new value and old one, or what is removed.
 * `recorded` switches the wording from what will happen (review) to what happened (receipt).
 */
@Component({
  selector: 'app-answer-changes',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    @if (rows().length === 0) {
      <p class="nothing">
        @if (recorded()) {
          No answers changed: the check-in records that everything is as it was.
        } @else {
          You have not changed any answers. Sending records a check-in that says everything is as it was.
        }
      </p>
    } @else {
      <dl class="changes">
        @for (row of rows(); track row.name) {
          <div class="row" [attr.data-field]="row.name">
            <dt>
              {{ row.label }}
              <span class="section">{{ row.section }}</span>
            </dt>
            <dd>
              @switch (row.kind) {
                @case ('cleared') {
                  <strong>{{ clearedText(row) }}</strong>
                  <span class="was">Was: {{ row.before }}</span>
                }
                @case ('added') {
                  <strong>{{ row.after }}</strong>
                  <span class="was">New answer</span>
                }
                @default {
                  <strong>{{ row.after }}</strong>
                  <span class="was">Was: {{ row.before }}</span>
                }
              }
            </dd>
            @if (editable()) {
              <dd class="change">
                <button type="button" class="link" (click)="edit.emit(row.name)">
                  Change<span class="visually-hidden"> {{ row.label }}</span>
                </button>
              </dd>
            }
          </div>
        }
      </dl>
    }
  `,
  styles: `
    .nothing {
      margin: 0 0 var(--space-4);
    }
    .changes {
      margin: 0 0 var(--space-4);
    }
    .row {
      display: grid;
      grid-template-columns: minmax(0, 2fr) minmax(0, 3fr) auto;
      gap: var(--space-1) var(--space-4);
      padding: var(--space-3) 0;
      border-bottom: 1px solid var(--color-border);
    }
    dt {
      font-weight: 600;
      overflow-wrap: anywhere;
    }
    .section,
    .was {
      display: block;
      font-size: 0.875rem;
      font-weight: 400;
      color: var(--color-text-muted);
    }
    dd {
      margin: 0;
      overflow-wrap: anywhere;
      white-space: pre-line;
    }
    .change {
      justify-self: end;
    }
    .link {
      min-height: 2.75rem;
      padding: 0 var(--space-2);
      background: transparent;
      border: 0;
      color: var(--color-accent-strong);
      text-decoration: underline;
      font: inherit;
    }
    @media (max-width: 40rem) {
      .row {
        grid-template-columns: minmax(0, 1fr) auto;
      }
      .row dd:not(.change) {
        grid-column: 1 / -1;
        grid-row: 2;
      }
      .change {
        grid-row: 1;
        grid-column: 2;
      }
    }
  `,
})
export class AnswerChanges {
  readonly rows = input.required<readonly ChangeRow[]>();
  readonly recorded = input(false);
  /** Review only: each row has a Change button. */
  readonly editable = input(false);
  readonly edit = output<string>();

  protected clearedText(row: ChangeRow): string {
    if (row.isFile) return this.recorded() ? 'Removed' : 'Will be removed';
    return this.recorded() ? 'Cleared' : 'Will be cleared';
  }
}
