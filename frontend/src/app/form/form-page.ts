import { ChangeDetectionStrategy, Component } from '@angular/core';

@Component({
  selector: 'app-form-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `<h1>FormPage</h1>`,
})
export class FormPage {}
