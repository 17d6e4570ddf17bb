import {
  ChangeDetectionStrategy,
  Component,
  computed,
  type ElementRef,
  input,
  output,
  viewChild,
} from '@angular/core';
import { RouterLink } from '@angular/router';
import type { OwnerLinkParams, SubmitResponse } from '@checkin/contract';
import { formatDateAndTime } from '../shared/dates';
import { ownerLinkQuery } from '../core/link-params';
import { OrganizerContactLine } from '../core/organizer-contact';
import { AnswerChanges, type ChangeRow } from './answer-changes';

/**
 * The receipt, once the CRM confirmed the check-in: its reference, when it was recorded, what it
 * recorded, what happens next, and where to go from here.
 */
@Component({
  selector: 'app-check-in-confirmation',
  imports: [RouterLink, AnswerChanges, OrganizerContactLine],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section class="card confirmation" aria-labelledby="confirmation-title">
      <div class="panel">
        <h2 #heading id="confirmation-title" tabindex="-1">Check-in recorded</h2>
        <p class="reference">
          Your reference <strong>{{ reference() }}</strong>
        </p>
      </div>
      <p>
        Recorded for {{ organizationName() }} on
        <time [attr.datetime]="response().submittedAt">{{ submittedAt() }}</time>.
      </p>
      <h3>What was recorded</h3>
      <app-answer-changes [rows]="rows()" [recorded]="true" />
      <h3>What happens next</h3>
      <p>
        Your organizer sees this check-in with your co-op's records. Your check-in history already includes
        it, and the next check-in starts from these answers.
      </p>
      <app-organizer-contact intro="If something above is wrong, or you have a question," />
      <div class="actions">
        <a class="button" routerLink="/report" [queryParams]="reportQuery()">See your check-in history</a>
        <button type="button" class="secondary" (click)="startAgain.emit()">Start another check-in</button>
      </div>
    </section>
  `,
  styles: `
    .confirmation {
      border-left: 6px solid var(--color-accent);
    }
    .panel {
      padding: var(--space-4);
      margin: 0 0 var(--space-4);
      border-radius: var(--radius);
      background: var(--color-accent-soft);
    }
    .panel h2 {
      margin: 0 0 var(--space-2);
    }
    .reference {
      margin: 0;
      font-size: 1.15rem;
    }
    h2:focus {
      outline: none;
    }
    h2:focus-visible {
      outline: 3px solid var(--color-focus);
    }
    h3 {
      font-size: 1.1rem;
      margin: var(--space-6) 0 var(--space-2);
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      gap: var(--space-3);
      margin-top: var(--space-6);
    }
  `,
})
export class CheckInConfirmation {
  readonly response = input.required<SubmitResponse>();
  readonly rows = input.required<readonly ChangeRow[]>();
  readonly organizationName = input.required<string>();
  readonly link = input.required<OwnerLinkParams>();
  readonly startAgain = output();

  private readonly heading = viewChild.required<ElementRef<HTMLElement>>('heading');

  protected readonly reportQuery = computed(() => ownerLinkQuery(this.link()));
  /** The CRM's activity id: what staff find the check-in by. */
  protected readonly reference = computed(() => `CI-${this.response().activityId}`);
  protected readonly submittedAt = computed(() => formatDateAndTime(new Date(this.response().submittedAt)));

  focus(): void {
    this.heading().nativeElement.focus();
  }
}
