/**
 * Owner text is shown by CiviCRM's own pages, and some of them (the activity view of a Memo
 * field, for one) print it without escaping and send no Content-Security-Policy. So markup is
 * refused at the boundary, the same way in the browser and on the server (README, "What a value
 * may be"; docs/decisions.md, "Owner text is inert").
 *
 * The rule follows the HTML tokenizer: a `<` starts a tag, an end tag, a comment, a doctype or a
 * bogus comment only when the next character is an ASCII letter, `/`, `!` or `?`. Every other
 * `<` is text to a browser, so "a < b", "<3" and "<= 10 members" stay answers an owner may give.
 * Character references that spell such a `<` (`&lt;b`, `&#60;script`, `&#x3c;!--`) are refused
 * too: they are inert where CiviCRM prints them raw, but a back-office edit box decodes them and
 * the next save would store the real tag. Only references that spell `<` whatever surrounds them
 * count (docs/decisions.md, "Owner text is inert"): names are case-sensitive (`&lt`, `&LT`; the
 * "Lt" of "Bread&Ltd." is no reference), and a named one without its semicolon counts only
 * before `/`, `!` or `?`, as in an attribute, where a browser keeps "&ltd=3" of a URL as written.
 */

/** The stable code of the refusal, in VALIDATION_FAILED answers' `problems` (docs/decisions.md, "Error bodies"). */
export const TEXT_HAS_MARKUP = 'TEXT_HAS_MARKUP';

/** What the owner reads next to the field, in the browser and in the server's answer. */
export const TEXT_HAS_MARKUP_MESSAGE =
  'remove the "<" directly before a letter or "/", "!" or "?": it looks like web page code, which CiviCRM cannot store safely. A space after "<" is fine.';

const TAG_OPEN = /<[A-Za-z/!?]/;
const ENCODED_TAG_OPEN = /&(?:(?:lt|LT);[A-Za-z/!?]|(?:lt|LT)[/!?]|#(?:0*60|[xX]0*3[cC]);?[A-Za-z/!?])/;

/** The first fragment of `text` a browser would read as markup, or null when the text is inert. */
export function findMarkup(text: string): string | null {
  const match = TAG_OPEN.exec(text) ?? ENCODED_TAG_OPEN.exec(text);
  return match ? match[0] : null;
}

export function hasMarkup(text: string): boolean {
  return findMarkup(text) !== null;
}
