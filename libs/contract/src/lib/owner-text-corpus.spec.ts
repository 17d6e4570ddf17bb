import { validateFieldValue } from './field-values';
import { findMarkup } from './owner-text';

/**
 * Ordinary writing an owner may give (docs/decisions.md, "Owner text is inert"): none of it may
 * be refused, whatever its `<`, `&` and `>`. Beside it, genuine markup that stays refused.
 */
const ORDINARY_WRITING = [
  'Bread&Ltd.',
  'Bread & Ltd.',
  'Smith&Lt. Jones',
  'Q&A on Thursday',
  'AT&T',
  'Tom & Jerry; AT&T; R&D; B&B',
  'I <3 this co-op',
  '5 < 6 and 7 > 6',
  'Membership grew from < 40 to 52',
  '<= 10 members, >= 5 workers',
  'a < b',
  'a<1 and b>2',
  '-> next step <- previous step',
  'bread&ltd. and Bread&LTD',
  'https://example.org/search?q=co-op&page=2&lang=fr#top',
  '&lt; 40 members',
  'We wrote "&lt;" in the minutes',
  '&lt;',
  '&amp; &gt; &quot;',
  '&#60; 5',
  'https://example.org/search?q=co-op&lt=5&page=2',
  'https://example.org/?a=1&b=2&ltd=3',
  'mailto:board@example.org?subject=Q&A',
  'Coopérative Œuvre de la Forêt, São Paulo, Zürich',
  'Mandarin 合作社 < 5 年',
  '🍞🥖 Bread co-op 🎉 <3',
  'Line one\nLine two\r\n> quoted reply',
  'Ünïcödé & ümläüts',
  'x'.repeat(1_990) + ' < ok',
  `${'Our members meet monthly; Q&A follows. '.repeat(40)}`,
];

const GENUINE_MARKUP: ReadonlyArray<[string, string]> = [
  ['<script>alert(1)</script>', '<s'],
  ['<img src=x onerror=alert(1)>', '<i'],
  ['</textarea><b>', '</'],
  ['<!-- hidden -->', '<!'],
  ['&lt;script&gt;', '&lt;s'],
  ['&LT;img src=x>', '&LT;i'],
  ['&lt/title>', '&lt/'],
  ['&lt!--', '&lt!'],
  ['&#60img src=x>', '&#60i'],
  ['&#60;img src=x>', '&#60;i'],
  ['&#x3C;/title>', '&#x3C;/'],
  ['&#X3c;svg onload=alert(1)>', '&#X3c;s'],
  // docs/decisions.md, "Owner text is inert": what HTML itself reads as a tag is refused too.
  ['a<b', '<b'],
  ['x<y>', '<y'],
  ['<<important>>', '<i'],
];

describe('owner text: the ordinary-writing corpus', () => {
  const notes = { name: 'notes', label: 'Notes', type: 'text' as const, maxLength: 2_000 };

  it.each(ORDINARY_WRITING.map((text) => [text.length > 60 ? `${text.slice(0, 57)}…` : text, text]))(
    'takes %j',
    (_shown, text) => {
      expect(findMarkup(text)).toBeNull();
      expect(validateFieldValue(notes, text)).toEqual({ ok: true });
    },
  );

  it.each(GENUINE_MARKUP)('refuses %j (finds %j)', (text, fragment) => {
    expect(findMarkup(text)).toBe(fragment);
    expect(validateFieldValue(notes, text)).toEqual({ ok: false, problem: { kind: 'markup' } });
  });
});
