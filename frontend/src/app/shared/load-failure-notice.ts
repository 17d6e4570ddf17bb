import { ChangeDetectionStrategy, Component, input, output } from '@angular/core';
import { OrganizerContactLine } from '../core/organizer-contact';
import type { LoadProblem } from './load-problems';
import type { ChoiceLink } from './organization-choices';

/**
 * What an owner page shows when it could not load: the problem in words, the co-ops to choose
 * from when the link names none, whom to contact, and "Try again" when trying again can help.
 */
@Component({
  selector: 'app-load-failure-notice',
  imports: [OrganizerContactLine],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <div class="notice" [class.error]="!problem().chooseOrganization" role="alert">
      <h2>{{ problem().title }}</h2>
      <p>{{ problem().message }}</p>
      @if (choices(); as choices) {
        <ul class="choices">
          @for (choice of choices; track choice.href) {
            <li>
              <a [href]="choice.href">{{ choice.name }}</a>
            </li>
          }
        </ul>
      }
      <app-organizer-contact
        [needsNewLink]="problem().needsNewLink"
        [intro]="problem().canRetry ? 'If this keeps happening,' : 'To carry on,'"
      />
      @if (problem().canRetry) {
        <button type="button" (click)="retry.emit()">Try again</button>
      }
    </div>
  `,
  styles: `
    h2 {
      font-size: 1.15rem;
      margin: 0 0 var(--space-2);
    }
    p {
      margin: 0 0 var(--space-3);
    }
    .choices {
      margin: 0 0 var(--space-3);
      padding-left: var(--space-6);
    }
    .choices li {
      margin: var(--space-2) 0;
    }
    .choices a {
      display: inline-block;
      min-height: 1.5rem;
      font-weight: 600;
      font-size: 1.1rem;
    }
  `,
})
export class LoadFailureNotice {
  readonly problem = input.required<LoadProblem>();
  readonly choices = input<readonly ChoiceLink[] | undefined>();
  readonly retry = output();
}
