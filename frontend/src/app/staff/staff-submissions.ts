import { ChangeDetectionStrategy, Component, computed, input, signal } from '@angular/core';
import type { StaffSubmission, StageOption } from '@checkin/contract';
import { formatDate } from '../core/value-format';

const SUBMISSIONS_PAGE = 25;

/** Every check-in of the organization, newest first, a page at a time. */
@Component({
  selector: 'app-staff-submissions',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section class="card" [attr.aria-labelledby]="headingId()">
      <h2 [id]="headingId()" tabindex="-1">Submissions</h2>
      @if (submissions().length === 0) {
        <p>No check-in has been recorded for this organization yet.</p>
      } @else {
        <div class="scroller" role="region" [attr.aria-labelledby]="headingId()" tabindex="0">
          <table>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Activity</th>
                <th scope="col">Subject</th>
                <th scope="col">Recorded by</th>
                <th scope="col">Stage set</th>
                <th scope="col" class="number">Fields</th>
              </tr>
            </thead>
            <tbody>
              @for (submission of shown(); track submission.id) {
                <tr>
                  <td class="nowrap">{{ format(submission.date) }}</td>
                  <td class="tabular">#{{ submission.id }}</td>
                  <td>{{ submission.subject ?? '' }}</td>
                  <td>{{ submission.recordedBy ?? '' }}</td>
                  <td>{{ stageLabel(submission.stage) }}</td>
                  <td class="number tabular">{{ submission.fieldCount }}</td>
                </tr>
              }
            </tbody>
          </table>
        </div>
        @if (hiddenCount() > 0) {
          <button type="button" class="secondary more" (click)="showMore()">
            Show {{ nextCount() }} more of {{ hiddenCount() }} older check-ins
          </button>
        }
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
    .scroller {
      overflow-x: auto;
    }
    table {
      border-collapse: collapse;
      width: 100%;
      min-width: 40rem;
    }
    th,
    td {
      padding: var(--space-2) var(--space-3);
      border-bottom: 1px solid var(--color-border);
      text-align: start;
      vertical-align: top;
    }
    thead th {
      background: var(--color-surface-muted);
    }
    .number {
      text-align: end;
    }
    .nowrap {
      white-space: nowrap;
    }
    .more {
      margin-top: var(--space-3);
    }
  `,
})
export class StaffSubmissions {
  readonly submissions = input.required<readonly StaffSubmission[]>();
  readonly stages = input.required<readonly StageOption[]>();
  readonly headingId = input.required<string>();

  protected readonly format = formatDate;
  /** The list grows a page at a time, so a co-op with hundreds of check-ins stays a light page. */
  private readonly limit = signal(SUBMISSIONS_PAGE);
  protected readonly shown = computed(() => this.submissions().slice(0, this.limit()));
  protected readonly hiddenCount = computed(() => Math.max(0, this.submissions().length - this.limit()));
  protected readonly nextCount = computed(() => Math.min(SUBMISSIONS_PAGE, this.hiddenCount()));

  protected showMore(): void {
    this.limit.set(this.limit() + SUBMISSIONS_PAGE);
  }

  protected stageLabel(rank: number | null): string {
    if (rank === null) return '';
    return this.stages().find((stage) => stage.rank === rank)?.label ?? `Stage ${rank}`;
  }
}
