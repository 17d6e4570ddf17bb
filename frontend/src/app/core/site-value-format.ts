import {
  computed,
  inject,
  Injectable,
  makeStateKey,
  PLATFORM_ID,
  signal,
  TransferState,
} from '@angular/core';
import { isPlatformServer } from '@angular/common';
import type { ValueFormatSettings } from '@checkin/contract';
import { currencySymbol, formatContextOf } from './value-format';

/**
 * The CRM site's currency and locale for the page being shown: set once by the page from its
 * payload, read by every component that writes an amount or a number (docs/decisions.md,
 * "Currency and number formats"), so none of them takes it through inputs.
 */
@Injectable({ providedIn: 'root' })
export class SiteValueFormat {
  private readonly transferState = inject(TransferState);
  private readonly onServer = isPlatformServer(inject(PLATFORM_ID));
  private readonly current = signal(formatContextOf(undefined));
  readonly context = this.current.asReadonly();

  /**
   * The sign the amount inputs show ("$"). Asking Intl for it makes a formatter, and the first
   * one a phone makes costs it about 0.1 s in the middle of hydrating the form: the server's
   * answer travels in the rendered page (transfer state) and the browser takes it from there
   * (docs/performance.md, "Figures").
   */
  readonly currencySymbol = computed(() => {
    const context = this.current();
    const key = makeStateKey<string>(`checkin.currencySymbol:${context.locale}|${context.currency}`);
    const carried = this.transferState.get(key, null);
    if (typeof carried === 'string') return carried;
    const symbol = currencySymbol(context);
    if (this.onServer) this.transferState.set(key, symbol);
    return symbol;
  });

  use(settings: ValueFormatSettings | undefined): void {
    this.current.set(formatContextOf(settings));
  }
}
