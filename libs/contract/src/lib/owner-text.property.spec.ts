import fc from 'fast-check';
import { findMarkup } from './owner-text';

/**
 * The owner-text rule (docs/decisions.md, "Owner text is inert") against what a browser makes of
 * the text, on generated strings built from the characters that matter (`<`, `&`, `;`, `#`, the
 * letters of `lt`, `x3c`, `60`, and the tag starters) mixed with ordinary ones.
 */
const PIECES = [
  '<',
  '>',
  '&',
  ';',
  '#',
  'l',
  't',
  'L',
  'T',
  'x',
  'X',
  '3',
  'c',
  'C',
  '6',
  '0',
  '/',
  '!',
  '?',
  'a',
  'B',
  ' ',
  'é',
  '🍞',
  '\n',
  '=',
  'Ltd.',
  '&lt;',
  '&#60;',
  '&#x3c;',
  '&LT;',
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((pieces) => pieces.join(''));

/** A `<` a browser reads as the start of a tag, comment or doctype. */
const TAG_OPEN = /<[A-Za-z/!?]/;

/** The references that spell `<` in an attribute value or an edit box, decoded once. */
function decodedOnce(value: string): string {
  return value
    .replace(/&(?:lt|LT);/g, '<')
    .replace(/&(?:lt|LT)(?=[/!?])/g, '<')
    .replace(/&#0*60;?/g, '<')
    .replace(/&#[xX]0*3[cC];?/g, '<');
}

describe('owner text rule, generated', () => {
  it('takes only text that stays inert as typed and once decoded', () => {
    fc.assert(
      fc.property(text, (value) => {
        const inert = !TAG_OPEN.test(value) && !TAG_OPEN.test(decodedOnce(value));
        expect(findMarkup(value) === null).toBe(inert);
      }),
      { numRuns: 2_000 },
    );
  });

  it('never refuses text without "<" and without a reference spelling it', () => {
    const ordinary = fc
      .string({ maxLength: 200 })
      .filter((value) => !value.includes('<') && !/&(?:lt|LT|#)/.test(value));
    fc.assert(
      fc.property(ordinary, (value) => findMarkup(value) === null),
      { numRuns: 2_000 },
    );
  });
});
