import { BoundedCache } from '@checkin/contract';

/**
 * Intl formatters, made once per locale and options. Making an `Intl.NumberFormat` or
 * `Intl.DateTimeFormat` costs far more than formatting with one (it loads the locale's data), and
 * a page formats hundreds of values: on the server, rendering an owner page spent about a fifth
 * of its time making formatters, and the phone pays the same again when it hydrates
 * (docs/performance.md, "Server-rendered owner pages"). The options are the code's own
 * constants, so the number of distinct formatters stays small; the cap only guards against a
 * caller that varies them.
 */
const MAX_FORMATTERS = 200;

/** A formatter maker that keeps each formatter it made, keyed by locale and options. */
function keptFormats<Options extends object, Formatter>(
  make: (locale: string | undefined, options: Options) => Formatter,
): (locale: string | undefined, options?: Options) => Formatter {
  const formats = new BoundedCache<string, Formatter>(MAX_FORMATTERS);
  return (locale, options = {} as Options) =>
    formats.get(`${locale ?? ''}|${JSON.stringify(options)}`, () => make(locale, options));
}

export const numberFormat = keptFormats(
  (locale, options: Intl.NumberFormatOptions) => new Intl.NumberFormat(locale, options),
);

export const dateTimeFormat = keptFormats(
  (locale, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, options),
);
