/**
 * CiviCRM's admin screens store what an administrator types in a label HTML-encoded (`<` as
 * `&lt;`, `&` as `&amp;`), and APIv4 answers it as stored; labels written through the API are
 * stored as given. The service decodes a label exactly once, so both read as typed, and every
 * page escapes what it shows (docs/decisions.md, "Labels as CiviCRM stores them").
 */
const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(lt|gt|amp|quot|apos|nbsp));/g;
const NAMED: Readonly<Record<string, string>> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

export function decodeHtmlOnce(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (whole, decimal?: string, hex?: string, name?: string) => {
    if (name) return NAMED[name] ?? whole;
    const code = decimal ? Number(decimal) : Number.parseInt(hex ?? '', 16);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
      ? String.fromCodePoint(code)
      : whole;
  });
}
