import { ChangeDetectionStrategy, Component, computed, input, signal } from '@angular/core';
import type { OptionItem, FieldReport } from '@checkin/contract';
import { formatDate } from '../core/value-format';
import type { FileLinkContext } from './file-link';
import { DisclosureButton } from '../shared/disclosure-button';
import { StaffValue } from './staff-value';

/**
 * A compact row: the latest value and its date, and a toggle for earlier entries. A hidden comma
 * parts each value from its date, so a screen reader reads "Cleared, recorded …", not one word.
 */
@Component({
  selector: 'app-staff-field-row',
  imports: [DisclosureButton, StaffValue],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <dl class="row">
      <dt>
        {{ report().field.label }}
        @if (crmOnly()) {
          <span class="tag">CRM only</span>
        }
      </dt>
      <dd>
        <app-staff-value
          [value]="report().latest"
          [field]="report().field"
          [options]="options()"
          [fileLinks]="fileLinks()"
          [inHistory]="report().history.length > 0"
        />
        @if (latestDate(); as date) {
          <span class="visually-hidden">, </span><span class="date">recorded {{ date }}</span>
        }
        @if (earlier().length > 0) {
          <app-disclosure-button [(expanded)]="expanded" [controls]="listId()">
            {{ earlier().length }} earlier {{ earlier().length === 1 ? 'entry' : 'entries' }}
          </app-disclosure-button>
          <ol class="history" [id]="listId()" [hidden]="!expanded()">
            <!-- Built when opened: a large co-op's page would otherwise render every entry of every field. -->
            @if (expanded()) {
              @for (entry of earlier(); track entry.activityId) {
                <li>
                  <app-staff-value
                    [value]="entry.value"
                    [field]="report().field"
                    [options]="options()"
                    [fileLinks]="fileLinks()"
                    [inHistory]="true"
                  />
                  <span class="visually-hidden">, </span
                  ><span class="date">recorded {{ format(entry.date) }}</span>
                </li>
              }
            }
          </ol>
        }
      </dd>
    </dl>
  `,
  styles: `
    .row {
      display: grid;
      grid-template-columns: minmax(10rem, 2fr) 3fr;
      gap: var(--space-1) var(--space-4);
      margin: 0;
      padding: var(--space-2) 0;
      border-top: 1px solid var(--color-border);
    }
    dt {
      font-weight: 600;
    }
    dd {
      margin: 0;
      min-width: 0;
    }
    .date {
      color: var(--color-text-muted);
      font-size: 0.9rem;
      margin-inline-start: var(--space-2);
    }
    .tag {
      font-size: 0.75rem;
      font-weight: 600;
      padding: 0 var(--space-1);
      border: 1px solid var(--color-border);
      border-radius: var(--radius);
      color: var(--color-text-muted);
    }
    .history {
      margin: var(--space-1) 0 0;
      padding-inline-start: var(--space-6);
    }
    @media (max-width: 36rem) {
      .row {
        grid-template-columns: 1fr;
      }
    }
  `,
})
export class StaffFieldRow {
  readonly report = input.required<FieldReport>();
  readonly options = input<readonly OptionItem[]>();
  readonly fileLinks = input.required<FileLinkContext>();

  protected readonly expanded = signal(false);
  protected readonly crmOnly = computed(() => this.report().field.name.includes('.'));
  protected readonly earlier = computed(() => this.report().history.slice(1));
  protected readonly latestDate = computed(() => {
    const newest = this.report().history[0];
    return newest ? formatDate(newest.date) : null;
  });
  protected readonly listId = computed(() => `earlier-${this.report().field.name.replace(/\W/g, '-')}`);
  protected readonly format = formatDate;
}
