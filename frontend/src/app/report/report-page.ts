import { ChangeDetectionStrategy, Component } from '@angular/core';

@Component({
  selector: 'app-report-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `<h1>ReportPage</h1>`,
})
export class ReportPage {}
