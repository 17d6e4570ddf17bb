/**
 * How money and numbers are written on every page: the CRM site's default currency (ISO 4217) and
 * its language as a BCP 47 tag (docs/decisions.md, "Currency and number formats").
 */
export interface ValueFormatSettings {
  currency: string;
  locale: string;
}

/** CiviCRM's own defaults (US dollars, en_US), used when the site's settings cannot be read. */
export const DEFAULT_VALUE_FORMAT: ValueFormatSettings = { currency: 'USD', locale: 'en-US' };

/**
 * The site's `defaultCurrency` and `lcMessages` (`en_CA`, `fr_CA`...) as settings Intl accepts; each
 * part that is missing or that Intl does not know falls back to the default on its own.
 */
export function valueFormatFromCrm(currency: unknown, lcMessages: unknown): ValueFormatSettings {
  return {
    currency: usableCurrency(currency) ?? DEFAULT_VALUE_FORMAT.currency,
    locale: usableLocale(lcMessages) ?? DEFAULT_VALUE_FORMAT.locale,
  };
}

function usableCurrency(value: unknown): string | null {
  if (typeof value !== 'string' || !/^[A-Za-z]{3}$/.test(value.trim())) return null;
  const code = value.trim().toUpperCase();
  try {
    new Intl.NumberFormat('en', { style: 'currency', currency: code });
    return code;
  } catch {
    return null;
  }
}

function usableLocale(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  try {
    const [tag] = Intl.NumberFormat.supportedLocalesOf(value.trim().replace(/_/g, '-'));
    return tag ?? null;
  } catch {
    return null;
  }
}
