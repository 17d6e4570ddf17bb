import {
  ChangeDetectionStrategy,
  Component,
  computed,
  DestroyRef,
  effect,
  inject,
  input,
  signal,
} from '@angular/core';
import { NgTemplateOutlet } from '@angular/common';
import { ReactiveFormsModule } from '@angular/forms';
import type { OptionItem } from '@checkin/contract';
import { englishMonthYear } from '../shared/dates';
import {
  controlIdOf,
  type FieldEntry,
  type FormContext,
  type MultiselectEntry,
  sameAnswer,
} from './check-in-form';
import { errorMessage } from './field-validation';
import { SiteValueFormat } from '../core/site-value-format';
import { FileField } from './file-field';

/**
 * A count in the character count's English sentence, grouped the English way ("1,968"). Not an
 * Intl formatter: it would be the only one the form makes while it hydrates, and making the
 * first one costs a phone about 0.1 s of its main thread (docs/performance.md, "Figures").
 */
export function englishCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** How long typing must pause before the character count is announced. */
const COUNT_ANNOUNCE_DELAY_MS = 1_000;

const BOOLEAN_CHOICES = [
  { value: true, label: 'Yes' },
  { value: false, label: 'No' },
  { value: null, label: 'Not answered' },
] as const;

/**
 * One editable field: its label (or legend), help, error message and the control its type
 * calls for. Every control carries aria-invalid and aria-describedby (help, unit, error).
 */
@Component({
  selector: 'app-field-control',
  imports: [NgTemplateOutlet, ReactiveFormsModule, FileField],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './field-control.html',
  styleUrl: './field-control.css',
})
export class FieldControl {
  readonly entry = input.required<FieldEntry>();
  readonly context = input.required<FormContext>();

  protected readonly booleanChoices = BOOLEAN_CHOICES;
  protected readonly controlId = computed(() => controlIdOf(this.entry().field));
  protected readonly options = computed<readonly OptionItem[]>(
    () => this.context().options[this.entry().field.name] ?? [],
  );

  protected readonly showError = computed(() => {
    const state = this.entry().state();
    return state.touched && state.errors !== null;
  });

  protected readonly message = computed(() => {
    const errors = this.entry().state().errors;
    return errors ? errorMessage(this.entry().field, errors, this.siteFormat.context()) : '';
  });

  private readonly siteFormat = inject(SiteValueFormat);
  protected readonly prefix = computed(() =>
    this.entry().kind === 'currency' ? this.siteFormat.currencySymbol() : null,
  );

  protected readonly suffix = computed(() => {
    const entry = this.entry();
    if (entry.kind === 'percent') return '%';
    return entry.kind === 'number' || entry.kind === 'currency' ? (entry.field.unit ?? null) : null;
  });

  /** "Last given March 2024" beside a prefilled answer; gone once the answer is changed. */
  protected readonly lastGiven = computed(() => {
    const entry = this.entry();
    if (!entry.lastGiven) return null;
    const date = new Date(entry.lastGiven);
    if (Number.isNaN(date.getTime())) return null;
    const unchanged = sameAnswer(entry.prefilled, submitValueOfState(entry));
    return unchanged ? `Last given ${englishMonthYear(date)}` : null;
  });

  /**
   * A live count for text with a configured limit (GOV.UK character count): how many characters
   * are left, and how many too many once past it.
   */
  protected readonly characterCount = computed(() => {
    const entry = this.entry();
    if (entry.kind !== 'text' || entry.field.maxLength === undefined) return null;
    const max = entry.field.maxLength;
    const left = max - entry.state().value.trim().length;
    if (left >= 0) {
      return {
        over: false,
        text: `You have ${englishCount(left)} character${left === 1 ? '' : 's'} remaining`,
      };
    }
    return {
      over: true,
      text: `You have ${englishCount(-left)} character${left === -1 ? '' : 's'} too many`,
    };
  });

  /**
   * The count for screen readers, said once typing pauses (GOV.UK character count): announcing
   * every keystroke would talk over the typing.
   */
  protected readonly announcedCount = signal('');

  protected readonly describedBy = computed(() => {
    const id = this.controlId();
    const ids = [
      this.entry().field.help ? `${id}-help` : null,
      this.lastGiven() ? `${id}-given` : null,
      this.characterCount() ? `${id}-count` : null,
      this.prefix() || this.suffix() ? `${id}-unit` : null,
      this.showError() ? `${id}-error` : null,
    ];
    return ids.filter((value) => value !== null).join(' ') || null;
  });

  constructor() {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let first = true;
    effect(() => {
      const text = this.characterCount()?.text ?? '';
      clearTimeout(timer);
      // The count as the page opens is read with the field; only changes are announced.
      if (first) {
        first = false;
        return;
      }
      timer = setTimeout(() => this.announcedCount.set(text), COUNT_ANNOUNCE_DELAY_MS);
    });
    inject(DestroyRef).onDestroy(() => clearTimeout(timer));
  }

  protected toggle(entry: MultiselectEntry, value: string, checked: boolean): void {
    const current = entry.control.value.filter((item) => item !== value);
    const next = checked ? [...current, value] : current;
    // Keep the options' order, so the same choices always make the same value.
    const order = this.options().map((option) => option.value);
    entry.control.setValue(next.sort((a, b) => order.indexOf(a) - order.indexOf(b)));
    entry.control.markAsDirty();
  }
}

/** The entry's answer as submitted, read through its state signal so the view follows typing. */
function submitValueOfState(entry: FieldEntry): ReturnType<FieldEntry['submitValue']> {
  entry.state();
  return entry.submitValue();
}
