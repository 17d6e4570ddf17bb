import { ChangeDetectionStrategy, Component, type ElementRef, input, output, viewChild } from '@angular/core';
import { AnswerChanges, type ChangeRow } from './answer-changes';

/**
 * "Check your answers" before sending: what the check-in will change, each with a way back to
 * its field, then one Send. Nothing reaches the CRM before Send is pressed here.
 */
@Component({
  selector: 'app-check-in-review',
  imports: [AnswerChanges],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section class="card review" aria-labelledby="review-title">
      <h2 #heading id="review-title" tabindex="-1">Check your answers before sending</h2>
      <p class="lead">
        @if (rows().length > 0) {
          This check-in will record
          {{ rows().length === 1 ? 'this change' : 'these ' + rows().length + ' changes' }} for
          {{ organizationName() }}. Answers you did not change stay as they are.
        } @else {
          Nothing will be changed for {{ organizationName() }}.
        }
      </p>
      <app-answer-changes [rows]="rows()" [editable]="true" (edit)="edit.emit($event)" />
      @if (failure(); as message) {
        <p #failureBox class="notice error" role="alert" tabindex="-1">{{ message }}</p>
      }
      <div class="actions">
        <button type="button" [disabled]="sending()" (click)="send.emit()">
          {{ sending() ? 'Sending…' : 'Send check-in' }}
        </button>
        <button type="button" class="secondary" [disabled]="sending()" (click)="edit.emit(null)">
          Edit answers
        </button>
      </div>
    </section>
  `,
  styles: `
    .review {
      border-left: 6px solid var(--color-accent);
    }
    h2:focus {
      outline: none;
    }
    h2:focus-visible {
      outline: 3px solid var(--color-focus);
    }
    .lead {
      margin: 0 0 var(--space-3);
    }
    .notice {
      margin: 0 0 var(--space-4);
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      gap: var(--space-3);
    }
  `,
})
export class CheckInReview {
  readonly rows = input.required<readonly ChangeRow[]>();
  readonly organizationName = input.required<string>();
  readonly sending = input(false);
  readonly failure = input<string | null>(null);
  readonly send = output();
  /** Back to the form: at a field's control (its name), or at the top (null). */
  readonly edit = output<string | null>();

  private readonly heading = viewChild.required<ElementRef<HTMLElement>>('heading');
  private readonly failureBox = viewChild<ElementRef<HTMLElement>>('failureBox');

  focus(): void {
    this.heading().nativeElement.focus();
  }

  focusFailure(): void {
    this.failureBox()?.nativeElement.focus();
  }
}
