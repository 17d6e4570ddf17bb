import { ChangeDetectionStrategy, Component, computed, input, signal } from '@angular/core';
import { earlierEntriesLabel, fieldAnchorId, type FieldView } from './report-view';
import { DisclosureButton } from '../shared/disclosure-button';
import { TrendChart } from './trend-chart';

/**
 * One field of the report: its latest value with the date it was given, and a disclosure
 * button that shows the earlier entries, led by a trend chart for numbers.
 */
@Component({
  selector: 'app-field-entries',
  imports: [DisclosureButton, TrendChart],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <h3 class="label" [id]="anchorId()" tabindex="-1">{{ field().label }}</h3>
    <p class="latest">
      <span class="value" [class.tabular]="field().numeric">{{ field().latest.valueLabel }}</span>
      <span class="as-of">
        as of <time [attr.datetime]="field().latest.dateTime">{{ field().latest.dateLabel }}</time>
      </span>
    </p>
    @if (field().earlier.length > 0) {
      <app-disclosure-button look="secondary" [(expanded)]="expanded" [controls]="historyId()">
        {{ toggleLabel() }}
      </app-disclosure-button>
      <div class="history" [id]="historyId()" [hidden]="!expanded()">
        @if (expanded()) {
          @if (field().trend; as trend) {
            <app-trend-chart [trend]="trend" [label]="field().label" />
          }
          <ol class="entries" [attr.aria-label]="'Earlier entries: ' + field().label">
            @for (entry of field().earlier; track entry.activityId) {
              <li>
                <span class="value" [class.tabular]="field().numeric">{{ entry.valueLabel }}</span>
                <time class="as-of" [attr.datetime]="entry.dateTime">{{ entry.dateLabel }}</time>
              </li>
            }
          </ol>
        }
      </div>
    }
  `,
  styles: `
    :host {
      display: block;
      padding: var(--space-3) 0;
      border-top: 1px solid var(--color-border);
    }
    .label {
      font-size: 1rem;
      margin: 0 0 var(--space-1);
    }
    .label:focus-visible {
      outline-offset: 4px;
    }
    .latest {
      display: flex;
      flex-wrap: wrap;
      align-items: baseline;
      gap: var(--space-1) var(--space-3);
      margin: 0 0 var(--space-2);
    }
    .latest .value {
      font-size: 1.125rem;
      font-weight: 600;
      overflow-wrap: anywhere;
    }
    .as-of {
      color: var(--color-text-muted);
      font-size: 0.875rem;
    }
    .history {
      margin-top: var(--space-3);
      padding-left: var(--space-3);
      border-left: 3px solid var(--color-accent-soft);
    }
    .entries {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    .entries li {
      display: flex;
      flex-wrap: wrap;
      justify-content: space-between;
      gap: var(--space-1) var(--space-4);
      padding: var(--space-1) 0;
    }
    .entries li + li {
      border-top: 1px dashed var(--color-border);
    }
    .entries .value {
      overflow-wrap: anywhere;
    }
  `,
})
export class FieldEntries {
  readonly field = input.required<FieldView>();

  protected readonly expanded = signal(false);
  protected readonly anchorId = computed(() => fieldAnchorId(this.field().name));
  protected readonly historyId = computed(() => `${fieldAnchorId(this.field().name)}-history`);
  protected readonly toggleLabel = computed(() => earlierEntriesLabel(this.field().earlier.length));
}
