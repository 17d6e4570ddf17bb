import { ChangeDetectionStrategy, Component } from '@angular/core';

@Component({
  selector: 'app-staff-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `<h1>StaffPage</h1>`,
})
export class StaffPage {}
