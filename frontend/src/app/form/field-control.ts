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
import { formatMonthYear } from '../core/clock';
import {
  controlIdOf,
  type FieldEntry,
  type FormContext,
  type MultiselectEntry,
  sameAnswer,
} from './check-in-form';
import { CURRENCY_SYMBOL, errorMessage } from './field-validation';
import { FileField } from './file-field';

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
  template: `
    @let e = entry();
    @let id = controlId();
    <div class="field" [class.has-error]="showError()" [id]="id + '-group'">
      @switch (e.kind) {
        @case ('boolean') {
          <fieldset>
            <legend>{{ e.field.label }}</legend>
            <ng-container *ngTemplateOutlet="hints" />
            <div class="choices inline">
              <!-- [name] groups the radios for the form; [attr.name] groups them for arrow keys. -->
              @for (choice of booleanChoices; track choice.label) {
                <label class="choice">
                  <input
                    type="radio"
                    [attr.id]="$first ? id : null"
                    [name]="id"
                    [attr.name]="id"
                    [value]="choice.value"
                    [formControl]="e.control"
                    [attr.aria-describedby]="describedBy()"
                    [attr.aria-invalid]="showError() || null"
                  />
                  {{ choice.label }}
                </label>
              }
            </div>
          </fieldset>
        }
        @case ('multiselect') {
          <fieldset>
            <legend>{{ e.field.label }}</legend>
            <ng-container *ngTemplateOutlet="hints" />
            <div class="choices">
              @for (option of options(); track option.value) {
                <label class="choice">
                  <input
                    #box
                    type="checkbox"
                    [attr.id]="$first ? id : null"
                    [checked]="e.state().value.includes(option.value)"
                    [attr.aria-describedby]="describedBy()"
                    [attr.aria-invalid]="showError() || null"
                    (change)="toggle(e, option.value, box.checked)"
                    (blur)="e.control.markAsTouched()"
                  />
                  {{ option.label }}
                </label>
              } @empty {
                <p class="help">No choices are available yet.</p>
              }
            </div>
          </fieldset>
        }
        @default {
          <label [for]="id">{{ e.field.label }}</label>
          <ng-container *ngTemplateOutlet="hints" />
          @switch (e.kind) {
            @case ('text') {
              @if (e.multiline) {
                <textarea
                  rows="5"
                  [id]="id"
                  [formControl]="e.control"
                  [attr.aria-describedby]="describedBy()"
                  [attr.aria-invalid]="showError() || null"
                ></textarea>
              } @else {
                <input
                  type="text"
                  [id]="id"
                  [formControl]="e.control"
                  [attr.aria-describedby]="describedBy()"
                  [attr.aria-invalid]="showError() || null"
                />
              }
              @if (characterCount(); as count) {
                <p class="count" [class.over]="count.over" [id]="id + '-count'">{{ count.text }}</p>
                <p class="visually-hidden" aria-live="polite">{{ announcedCount() }}</p>
              }
            }
            @case ('date') {
              <input
                type="date"
                class="date"
                [id]="id"
                [formControl]="e.control"
                [attr.aria-describedby]="describedBy()"
                [attr.aria-invalid]="showError() || null"
              />
            }
            @case ('select') {
              <select
                [id]="id"
                [formControl]="e.control"
                [attr.aria-describedby]="describedBy()"
                [attr.aria-invalid]="showError() || null"
              >
                <option value="">Not answered</option>
                @for (option of options(); track option.value) {
                  <option [value]="option.value">{{ option.label }}</option>
                }
              </select>
            }
            @case ('file') {
              <app-file-field
                [entry]="e"
                [context]="context()"
                [inputId]="id"
                [describedBy]="describedBy()"
                [invalid]="showError()"
              />
            }
            @default {
              <div class="affixed">
                @if (prefix()) {
                  <span class="affix" [id]="id + '-unit'">{{ prefix() }}</span>
                }
                <input
                  type="text"
                  class="number"
                  autocomplete="off"
                  [attr.inputmode]="e.kind === 'number' ? 'numeric' : 'decimal'"
                  [id]="id"
                  [formControl]="e.control"
                  [attr.aria-describedby]="describedBy()"
                  [attr.aria-invalid]="showError() || null"
                />
                @if (suffix()) {
                  <span class="affix" [id]="id + '-unit'">{{ suffix() }}</span>
                }
              </div>
            }
          }
        }
      }
    </div>

    <ng-template #hints>
      @if (entry().field.help) {
        <p class="help" [id]="controlId() + '-help'">{{ entry().field.help }}</p>
      }
      @if (lastGiven(); as given) {
        <p class="given" [id]="controlId() + '-given'">{{ given }}</p>
      }
      @if (showError()) {
        <p class="error" [id]="controlId() + '-error'">
          <span class="visually-hidden">Error:</span> {{ message() }}
        </p>
      }
    </ng-template>
  `,
  styles: `
    .field {
      margin: 0 0 var(--space-6);
    }
    .field.has-error {
      border-left: 4px solid var(--color-danger);
      padding-left: var(--space-3);
    }
    label,
    legend {
      display: block;
      font-weight: 600;
      margin-bottom: var(--space-1);
    }
    fieldset {
      border: 0;
      margin: 0;
      padding: 0;
      min-width: 0;
    }
    .help,
    .given {
      margin: 0 0 var(--space-2);
      color: var(--color-text-muted);
    }
    .count {
      margin: var(--space-1) 0 0;
      color: var(--color-text-muted);
    }
    .count.over {
      color: var(--color-danger);
      font-weight: 600;
    }
    .error {
      margin: 0 0 var(--space-2);
      color: var(--color-danger);
      font-weight: 600;
    }
    input[type='text'],
    input[type='date'],
    select,
    textarea {
      display: block;
      width: 100%;
      max-width: 36rem;
      min-height: 2.75rem;
      padding: var(--space-2) var(--space-3);
      border: 2px solid var(--color-text-muted);
      border-radius: var(--radius);
      background: var(--color-surface);
    }
    textarea {
      resize: vertical;
    }
    input.date {
      max-width: 14rem;
    }
    [aria-invalid='true'] {
      border-color: var(--color-danger);
    }
    .affixed {
      display: flex;
      align-items: stretch;
      max-width: 22rem;
    }
    .affixed input {
      flex: 1 1 auto;
      min-width: 0;
      /* Above the unit boxes, so the focus ring is never drawn under them. */
      position: relative;
      z-index: 1;
    }
    .affix {
      display: inline-flex;
      align-items: center;
      padding: 0 var(--space-3);
      border: 2px solid var(--color-text-muted);
      background: var(--color-surface-muted);
      white-space: nowrap;
    }
    .affix:first-child {
      border-right: 0;
      border-radius: var(--radius) 0 0 var(--radius);
    }
    .affix:last-child {
      border-left: 0;
      border-radius: 0 var(--radius) var(--radius) 0;
    }
    .affixed input:not(:first-child) {
      border-top-left-radius: 0;
      border-bottom-left-radius: 0;
    }
    .affixed input:not(:last-child) {
      border-top-right-radius: 0;
      border-bottom-right-radius: 0;
    }
    .choices {
      display: grid;
      gap: var(--space-1);
    }
    .choices.inline {
      display: flex;
      flex-wrap: wrap;
      column-gap: var(--space-6);
    }
    .choice {
      display: flex;
      align-items: center;
      gap: var(--space-2);
      min-height: 2.75rem;
      font-weight: 400;
      margin: 0;
      cursor: pointer;
    }
    .choice input {
      width: 1.5rem;
      height: 1.5rem;
      margin: 0;
      flex: none;
      accent-color: var(--color-accent);
    }
  `,
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
    return errors ? errorMessage(this.entry().field, errors) : '';
  });

  protected readonly prefix = computed(() => (this.entry().kind === 'currency' ? CURRENCY_SYMBOL : null));

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
    return unchanged ? `Last given ${formatMonthYear(date)}` : null;
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
    const number = (n: number) => new Intl.NumberFormat().format(n);
    if (left >= 0) {
      return { over: false, text: `You have ${number(left)} character${left === 1 ? '' : 's'} remaining` };
    }
    return { over: true, text: `You have ${number(-left)} character${left === -1 ? '' : 's'} too many` };
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
