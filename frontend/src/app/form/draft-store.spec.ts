import { TestBed } from '@angular/core/testing';
import { DRAFT_STORAGE, draftKey, DraftStore, describeSavedAt, formatSavedTime } from './draft-store';

class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  failWrites = false;
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    if (this.failWrites) throw new DOMException('quota', 'QuotaExceededError');
    this.items.set(key, value);
  }
}

function setUp(storage: Storage | null = new MemoryStorage()) {
  TestBed.configureTestingModule({ providers: [{ provide: DRAFT_STORAGE, useValue: storage }] });
  return { store: TestBed.inject(DraftStore), storage };
}

const KEY = draftKey(102, 101);
const NOON = new Date('2026-11-21T12:05:00Z');

describe('DraftStore', () => {
  it('keys drafts by form id, person and organization', () => {
    expect(KEY).toBe('org_engagement_check_in:102:101');
  });

  it('saves the answers with the time and loads them back', () => {
    const { store } = setUp();
    expect(store.save(KEY, { Equity_share: '250' }, NOON)).toEqual({
      savedAt: '2026-11-21T12:05:00.000Z',
      values: { Equity_share: '250' },
    });
    expect(store.load(KEY)?.values).toEqual({ Equity_share: '250' });
    expect(store.load(draftKey(102, 999))).toBeNull();
  });

  it('ignores a stored draft it cannot read', () => {
    const storage = new MemoryStorage();
    const { store } = setUp(storage);
    storage.setItem(KEY, '{not json');
    expect(store.load(KEY)).toBeNull();
    storage.setItem(KEY, JSON.stringify({ savedAt: 'yesterday', values: {} }));
    expect(store.load(KEY)).toBeNull();
  });

  it('reuses the submission id when the same answers are sent again, and only then', () => {
    const { store } = setUp();
    const first = store.submissionIdFor(KEY, { a: '1' }, 'fingerprint-1');
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(store.submissionIdFor(KEY, { a: '1' }, 'fingerprint-1')).toBe(first);
    expect(store.submissionIdFor(KEY, { a: '2' }, 'fingerprint-2')).not.toBe(first);
  });

  it('keeps a pending submission through later saves, so a reload and retry reuse its id', () => {
    const { store } = setUp();
    const id = store.submissionIdFor(KEY, { a: '1' }, 'fingerprint-1');
    store.save(KEY, { a: '1' });
    expect(store.load(KEY)?.pendingSubmission).toEqual({ id, fingerprint: 'fingerprint-1' });
  });

  it('clears the draft', () => {
    const { store } = setUp();
    store.save(KEY, { a: '1' });
    store.clear(KEY);
    expect(store.load(KEY)).toBeNull();
  });

  it('says when the browser would not store the draft', () => {
    const storage = new MemoryStorage();
    storage.failWrites = true;
    expect(setUp(storage).store.save(KEY, { a: '1' })).toBeNull();
    TestBed.resetTestingModule();
    expect(setUp(null).store.save(KEY, { a: '1' })).toBeNull();
  });
});

describe('saved times', () => {
  // The person reads their own clock: build instants from local times, so the suite holds in
  // every time zone it runs under.
  const localInstant = (day: number, hours: number, minutes: number) =>
    new Date(2026, 10, day, hours, minutes).toISOString();
  const localNoon = new Date(2026, 10, 21, 12, 5);

  it('shows the local time in the clock style of the locale', () => {
    expect(formatSavedTime(localInstant(21, 9, 5), 'en-GB')).toBe('09:05');
    expect(formatSavedTime(localInstant(21, 17, 56), 'en-US')).toMatch(/^5:56\sPM$/);
  });

  it('names the day of a draft saved before today', () => {
    expect(describeSavedAt(localInstant(21, 9, 5), localNoon, 'en-GB')).toBe('at 09:05');
    expect(describeSavedAt(localInstant(19, 17, 40), localNoon, 'en-US')).toMatch(
      /^on November 19, 2026 at 5:40\sPM$/,
    );
  });
});
