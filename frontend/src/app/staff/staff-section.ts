import { ChangeDetectionStrategy, Component, computed, input, signal } from '@angular/core';
import type { FieldReport, OptionMap, StaffSection } from '@checkin/contract';
import { isEmptyValue } from '../core/value-format';
import { DisclosureButton } from '../shared/disclosure-button';
import type { FileLinkContext } from './file-link';
import { StaffFieldRow } from './staff-field-row';
import { QuarterlyMatrixTable } from '../shared/quarterly-matrix';

/** One report section: filled fields as compact rows, the stage-5 matrix, and the empty fields behind a toggle. */
@Component({
  selector: 'app-staff-section',
  imports: [DisclosureButton, StaffFieldRow, QuarterlyMatrixTable],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section class="card" [attr.aria-labelledby]="headingId()">
      <h2 [id]="headingId()" tabindex="-1">{{ heading() }}</h2>
      @if (filled().length === 0 && !section().matrix) {
        <p class="muted">Nothing recorded in this section yet.</p>
      }
      <ul class="rows">
        @for (report of filled(); track report.field.name) {
          <li>
            <app-staff-field-row
              [report]="report"
              [options]="options()[report.field.name]"
              [fileLinks]="fileLinks()"
            />
          </li>
        }
      </ul>
      @if (section().matrix; as matrix) {
        <app-quarterly-matrix [matrix]="matrix" [captionId]="headingId() + '-matrix'" />
      }
      @if (empty().length > 0) {
        <app-disclosure-button [(expanded)]="showEmpty" [controls]="headingId() + '-empty'">
          {{ empty().length }} empty {{ empty().length === 1 ? 'field' : 'fields' }}
        </app-disclosure-button>
        <ul class="empty" [id]="headingId() + '-empty'" [hidden]="!showEmpty()">
          @for (report of empty(); track report.field.name) {
            <li>{{ report.field.label }}</li>
          }
        </ul>
      }
    </section>
  `,
  styles: `
    :host {
      display: block;
      scroll-margin-top: 5rem;
    }
    h2 {
      scroll-margin-top: 5rem;
    }
    .rows,
    .empty {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    .empty li {
      padding: var(--space-1) 0;
      color: var(--color-text-muted);
    }
    .muted {
      color: var(--color-text-muted);
    }
  `,
})
export class StaffSectionCard {
  readonly section = input.required<StaffSection>();
  readonly options = input.required<OptionMap>();
  readonly fileLinks = input.required<FileLinkContext>();
  readonly headingId = input.required<string>();

  protected readonly showEmpty = signal(false);
  protected readonly heading = computed(() => sectionHeading(this.section()));
  /** Fields with a value or a history: an answer cleared at a check-in is listed, as cleared. */
  protected readonly filled = computed(() =>
    this.section().fields.filter((report) => !neverAnswered(report)),
  );
  protected readonly empty = computed(() => this.section().fields.filter(neverAnswered));
}

function neverAnswered(report: FieldReport): boolean {
  return isEmptyValue(report.latest) && report.history.length === 0;
}

/** "Stage 2: Feasibility" for stage sections; the title alone for the organization and other fields. */
export function sectionHeading(section: Pick<StaffSection, 'rank' | 'title'>): string {
  return section.rank === null || section.rank === 0
    ? section.title
    : `Stage ${section.rank}: ${section.title}`;
}
