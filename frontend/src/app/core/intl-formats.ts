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

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function cached<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let formatter = cache.get(key);
  if (formatter === undefined) {
    formatter = make();
    if (cache.size >= MAX_FORMATTERS) cache.clear();
    cache.set(key, formatter);
  }
  return formatter;
}

export function numberFormat(
  locale: string | undefined,
  options: Intl.NumberFormatOptions = {},
): Intl.NumberFormat {
  return cached(
    numberFormats,
    `${locale ?? ''}|${JSON.stringify(options)}`,
    () => new Intl.NumberFormat(locale, options),
  );
}

export function dateTimeFormat(
  locale: string | undefined,
  options: Intl.DateTimeFormatOptions = {},
): Intl.DateTimeFormat {
  return cached(
    dateTimeFormats,
    `${locale ?? ''}|${JSON.stringify(options)}`,
    () => new Intl.DateTimeFormat(locale, options),
  );
}
