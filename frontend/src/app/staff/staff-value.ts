import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import {
  type FieldConfig,
  type FieldValue,
  isFileValue,
  NUMERIC_FIELD_TYPES,
  type OptionItem,
} from '@checkin/contract';
import { formatValue, isEmptyValue } from '../core/value-format';
import { SiteValueFormat } from '../core/site-value-format';
import { fileHref, type FileLinkContext } from './file-link';

/** One value as staff read it: formatted per docs/product-rules.md, "Value formatting", files as links into the CRM. */
@Component({
  selector: 'app-staff-value',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    @if (cleared()) {
      <span class="none">Cleared</span>
    } @else if (empty()) {
      <span class="none">No value</span>
    } @else if (href(); as href) {
      <a [href]="href" target="_blank" rel="noopener noreferrer"
        >{{ text() }}<span class="visually-hidden"> (opens in a new tab)</span></a
      >
    } @else {
      <span [class.tabular]="numeric()">{{ text() }}</span>
    }
  `,
  styles: `
    .none {
      color: var(--color-text-muted);
      font-style: italic;
    }
    a {
      overflow-wrap: anywhere;
    }
  `,
})
export class StaffValue {
  readonly value = input.required<FieldValue>();
  readonly field = input.required<FieldConfig>();
  readonly options = input<readonly OptionItem[]>();
  readonly fileLinks = input.required<FileLinkContext>();
  /** The value is a history entry (or the latest of one): null there means the owner cleared it. */
  readonly inHistory = input(false);
  private readonly siteFormat = inject(SiteValueFormat);

  protected readonly empty = computed(() => isEmptyValue(this.value()));
  protected readonly cleared = computed(() => this.inHistory() && this.value() === null);
  protected readonly numeric = computed(() => NUMERIC_FIELD_TYPES.includes(this.field().type));
  protected readonly text = computed(() => {
    const field = this.field();
    const text = formatValue(this.value(), field, { ...this.siteFormat.context(), options: this.options() });
    return field.unit && field.type === 'number' ? `${text} ${field.unit}` : text;
  });
  protected readonly href = computed(() => {
    const value = this.value();
    return isFileValue(value) ? fileHref(value, this.fileLinks()) : null;
  });
}
