/**
 * One cached value with a time limit. Concurrent callers during a load share one request, and a
 * failed load is not cached, so the next caller tries again.
 */
export class TtlCache<T> {
  private value?: { data: T; expiresAt: number };
  private loading?: Promise<T>;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async get(load: () => Promise<T>): Promise<T> {
    if (this.value && this.value.expiresAt > this.now()) return this.value.data;
    if (!this.loading) {
      this.loading = load()
        .then((data) => {
          this.value = { data, expiresAt: this.now() + this.ttlMs };
          return data;
        })
        .finally(() => {
          this.loading = undefined;
        });
    }
    return this.loading;
  }

  clear(): void {
    this.value = undefined;
  }
}
