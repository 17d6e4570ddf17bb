import { validateFieldValue } from './field-values';
import { findMarkup, hasMarkup } from './owner-text';

describe('owner text markup rule', () => {
  it.each([
    ['<script>alert(1)</script>', '<s'],
    ['<img src=x onerror=alert(1)>', '<i'],
    ['notes </textarea><b>', '</'],
    ['<!-- hidden -->', '<!'],
    ['<?php echo 1; ?>', '<?'],
    ['<svg/onload=alert(1)>', '<s'],
    ['We met.\n<IFRAME src=//evil>', '<I'],
    ['&lt;script&gt;', '&lt;s'],
    ['&#60;img src=x>', '&#60;i'],
    ['&#x3C;/title>', '&#x3C;/'],
    ['&lt!--', '&lt!'],
  ])('refuses %j (finds %j)', (text, fragment) => {
    expect(findMarkup(text)).toBe(fragment);
  });

  it.each([
    'Membership grew from < 40 to 52',
    'I <3 this co-op',
    '<= 10 members, >= 5 workers',
    'a<1 and b>2',
    'Tom & Jerry; AT&T',
    '&lt; 40 members',
    'Mandarin 合作社 < 5 年',
    'plain text',
  ])('takes %j', (text) => {
    expect(hasMarkup(text)).toBe(false);
  });

  it('is part of every text answer check, after the length', () => {
    const notes = { name: 'notes', label: 'Notes', type: 'text' as const, maxLength: 20 };
    expect(validateFieldValue(notes, '<b>bold</b>')).toEqual({ ok: false, problem: { kind: 'markup' } });
    expect(validateFieldValue(notes, 'x'.repeat(21))).toEqual({
      ok: false,
      problem: { kind: 'maxLength', max: 20 },
    });
    expect(validateFieldValue(notes, '2 < 3')).toEqual({ ok: true });
  });
});
