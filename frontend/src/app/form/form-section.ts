import { ChangeDetectionStrategy, Component, computed, input, output } from '@angular/core';
import type { FormContext, FormSection } from './check-in-form';
import { DisclosureButton } from '../shared/disclosure-button';
import { FieldControl } from './field-control';

const ROLE_NOTES = { organization: null, current: 'Current stage', earlier: 'Earlier stage' } as const;

/**
 * One section of the form. Section 0 is always open; a stage section is a disclosure (a button
 * in its heading) so earlier stages can be folded away and still be edited when opened.
 */
@Component({
  selector: 'app-form-section',
  imports: [DisclosureButton, FieldControl],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    @let s = section();
    <section class="card" [attr.aria-labelledby]="headingId()">
      @if (s.role === 'organization') {
        <h2 [id]="headingId()">{{ s.title }}</h2>
      } @else {
        <h2 [id]="headingId()">
          <app-disclosure-button
            look="heading"
            [expanded]="open()"
            (expandedChange)="openChange.emit($event)"
            [controls]="bodyId()"
          >
            <span class="title">{{ s.title }}</span>
            <span class="note"><span class="visually-hidden">, </span>{{ note() }}</span>
          </app-disclosure-button>
        </h2>
      }
      <div [id]="bodyId()" [hidden]="!open()">
        @if (s.description) {
          <p class="description">{{ s.description }}</p>
        }
        @if (s.readOnly.length > 0) {
          <dl class="facts">
            @for (item of s.readOnly; track item.field.name) {
              <div class="fact">
                <dt>{{ item.field.label }}</dt>
                <dd>{{ item.text || 'Not recorded' }}</dd>
              </div>
            }
          </dl>
        }
        @for (entry of s.entries; track entry.field.name) {
          <app-field-control [entry]="entry" [context]="context()" />
        }
      </div>
    </section>
  `,
  styles: `
    h2 {
      margin-bottom: var(--space-3);
    }
    .note {
      font-size: 0.875rem;
      font-weight: 600;
      padding: 0 var(--space-2);
      border-radius: var(--radius);
      background: var(--color-accent-soft);
      color: var(--color-text);
    }
    .description {
      margin-top: 0;
      color: var(--color-text-muted);
    }
    .facts {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr));
      gap: var(--space-3);
      margin: 0 0 var(--space-6);
      padding: var(--space-3);
      border-radius: var(--radius);
      background: var(--color-surface-muted);
    }
    .fact {
      min-width: 0;
    }
    dt {
      font-size: 0.875rem;
      color: var(--color-text-muted);
    }
    dd {
      margin: 0;
      font-weight: 600;
      overflow-wrap: anywhere;
    }
  `,
})
export class FormSectionCard {
  readonly section = input.required<FormSection>();
  readonly context = input.required<FormContext>();
  readonly open = input(true);
  readonly openChange = output<boolean>();

  protected readonly headingId = computed(() => `section-${this.section().rank}-title`);
  protected readonly bodyId = computed(() => `section-${this.section().rank}-body`);
  protected readonly note = computed(() => ROLE_NOTES[this.section().role]);
}
