/**
 * Answers of pure work kept by key, at most `limit` of them: past the limit all are forgotten at
 * once, which costs one recomputation each and keeps a cache of a few known keys (formatters,
 * column names, the same check-in dates on every request) from growing without end when a caller
 * varies them.
 */
export class BoundedCache<Key, Value> {
  private readonly answers = new Map<Key, Value>();

  constructor(private readonly limit: number) {}

  /** The kept answer for the key, or `compute()`'s, kept. A thrown error keeps nothing. */
  get(key: Key, compute: () => Value): Value {
    if (this.answers.has(key)) return this.answers.get(key) as Value;
    const answer = compute();
    if (this.answers.size >= this.limit) this.answers.clear();
    this.answers.set(key, answer);
    return answer;
  }

  get size(): number {
    return this.answers.size;
  }
}
