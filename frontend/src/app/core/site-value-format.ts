import { Injectable, signal } from '@angular/core';
import type { ValueFormatSettings } from '@checkin/contract';
import { formatContextOf } from './value-format';

/**
 * The CRM site's currency and locale for the page being shown: set once by the page from its
 * payload, read by every component that writes an amount or a number (docs/decisions.md,
 * "Currency and number formats"), so none of them takes it through inputs.
 */
@Injectable({ providedIn: 'root' })
export class SiteValueFormat {
  private readonly current = signal(formatContextOf(undefined));
  readonly context = this.current.asReadonly();

  use(settings: ValueFormatSettings | undefined): void {
    this.current.set(formatContextOf(settings));
  }
}
