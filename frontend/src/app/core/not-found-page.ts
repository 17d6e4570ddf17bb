import { ChangeDetectionStrategy, Component } from '@angular/core';

@Component({
  selector: 'app-not-found-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <h1>Page not found</h1>
    <p>Open the personal link from your email to reach your check-in form or report.</p>
  `,
})
export class NotFoundPage {}
