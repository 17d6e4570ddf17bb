import { ChangeDetectionStrategy, Component, type ElementRef, input, output, viewChild } from '@angular/core';

export interface ErrorSummaryItem {
  /** The field's form-side name. */
  name: string;
  /** The id of the control the link moves focus to. */
  controlId: string;
  label: string;
  message: string;
}

/**
 * The list of problems shown above the form after a submit the form refused: each links to its
 * field. The page moves focus here, so the list is read out first.
 */
@Component({
  selector: 'app-error-summary',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <div #box class="error-summary" role="alert" tabindex="-1" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">There is a problem</h2>
      <p>Check these answers, then send the check-in again:</p>
      <ul>
        @for (item of items(); track item.name) {
          <li>
            <a [href]="'#' + item.controlId" (click)="select($event, item)">
              {{ item.label }}: {{ item.message }}
            </a>
          </li>
        }
      </ul>
    </div>
  `,
  styles: `
    .error-summary {
      border: 4px solid var(--color-danger);
      border-radius: var(--radius);
      padding: var(--space-4);
      margin-bottom: var(--space-6);
      background: var(--color-surface);
    }
    .error-summary:focus {
      outline: 3px solid var(--color-focus);
      outline-offset: 2px;
    }
    h2 {
      margin-bottom: var(--space-2);
    }
    ul {
      margin: 0;
      padding-left: var(--space-6);
    }
    li {
      margin: var(--space-1) 0;
    }
    a {
      color: var(--color-danger);
      font-weight: 600;
      display: block;
      min-height: 1.5rem;
    }
  `,
})
export class ErrorSummary {
  readonly items = input.required<readonly ErrorSummaryItem[]>();
  /** A link was followed: the page opens the field's section and focuses the control. */
  readonly fieldSelected = output<ErrorSummaryItem>();

  private readonly box = viewChild.required<ElementRef<HTMLElement>>('box');

  focus(): void {
    this.box().nativeElement.focus();
  }

  protected select(event: MouseEvent, item: ErrorSummaryItem): void {
    event.preventDefault();
    this.fieldSelected.emit(item);
  }
}
