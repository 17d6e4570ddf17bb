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
import { ownerLinkQuery } from '../core/link-params';

/** Shown once the CRM confirmed the check-in: when it was recorded, and where to see the history. */
@Component({
  selector: 'app-check-in-confirmation',
  imports: [RouterLink],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section class="card confirmation" aria-labelledby="confirmation-title">
      <h2 #heading id="confirmation-title" tabindex="-1">Thank you, your check-in is recorded</h2>
      <p>
        It was saved for {{ organizationName() }} on
        <time [attr.datetime]="response().submittedAt">{{ submittedAt() }}</time>.
      </p>
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
    h2:focus {
      outline: none;
    }
    h2:focus-visible {
      outline: 3px solid var(--color-focus);
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      gap: var(--space-3);
    }
  `,
})
export class CheckInConfirmation {
  readonly response = input.required<SubmitResponse>();
  readonly organizationName = input.required<string>();
  readonly link = input.required<OwnerLinkParams>();
  readonly startAgain = output();

  private readonly heading = viewChild.required<ElementRef<HTMLElement>>('heading');

  protected readonly reportQuery = computed(() => ownerLinkQuery(this.link()));
  protected readonly submittedAt = computed(() =>
    new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' }).format(
      new Date(this.response().submittedAt),
    ),
  );

  focus(): void {
    this.heading().nativeElement.focus();
  }
}
