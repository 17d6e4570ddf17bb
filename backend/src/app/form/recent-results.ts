import { LRUCache } from 'lru-cache';

/**
 * Answers repeated work by key from memory: a key already done answers its result at once, and
 * a key still in progress shares the running promise (a double click waits for the first
 * click instead of racing it). Only successes are kept, at most `capacity` of them, the least
 * recently asked dropped first, so memory stays bounded. Per process: it saves round trips, it
 * is not what makes the work idempotent across instances.
 */
export class RecentResults<T extends NonNullable<unknown>> {
  private readonly results: LRUCache<string, T, () => Promise<T>>;

  constructor(capacity: number) {
    this.results = new LRUCache({
      max: capacity,
      // Work pushed out while it runs still answers its callers: its CRM writes are done.
      ignoreFetchAbort: true,
      fetchMethod: (_key, _stale, { context: work }) => work(),
    });
  }

  run(key: string, work: () => Promise<T>): Promise<T> {
    return this.results.fetch(key, { context: work }).then((result) => result as T);
  }
}
