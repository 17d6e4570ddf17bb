import { makeStateKey, PLATFORM_ID, TransferState } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { SiteValueFormat } from './site-value-format';

const CAD_IN_US_KEY = makeStateKey<string>('checkin.currencySymbol:en-US|CAD');

function formatOn(platform: 'browser' | 'server'): { format: SiteValueFormat; state: TransferState } {
  TestBed.configureTestingModule({ providers: [{ provide: PLATFORM_ID, useValue: platform }] });
  return { format: TestBed.inject(SiteValueFormat), state: TestBed.inject(TransferState) };
}

describe('SiteValueFormat: the currency symbol', () => {
  it('is worked out on the server and left in the page for the browser', () => {
    const { format, state } = formatOn('server');
    format.use({ locale: 'en-US', currency: 'CAD' });
    expect(format.currencySymbol()).toBe('CA$');
    expect(state.get(CAD_IN_US_KEY, null)).toBe('CA$');
  });

  it("is taken in the browser from the server's page, for the same locale and currency only", () => {
    const { format, state } = formatOn('browser');
    state.set(CAD_IN_US_KEY, 'from the page');
    format.use({ locale: 'en-US', currency: 'CAD' });
    expect(format.currencySymbol()).toBe('from the page');
    format.use({ locale: 'en-CA', currency: 'CAD' });
    expect(format.currencySymbol()).toBe('$');
  });

  it('is worked out in the browser when the page did not carry it, and not stored there', () => {
    const { format, state } = formatOn('browser');
    format.use({ locale: 'en-US', currency: 'USD' });
    expect(format.currencySymbol()).toBe('$');
    expect(state.isEmpty).toBe(true);
  });
});
