/**
 * Answers repeated work by key from memory: a key already done answers its result at once, and
 * a key still in progress shares the running promise (a double click waits for the first
 * click instead of racing it). Only successes are kept, at most `capacity` of them, oldest
 * dropped first, so memory stays bounded. Per process: it saves round trips, it is not what
 * makes the work idempotent across instances.
 */
export class RecentResults<T> {
  private readonly done = new Map<string, T>();
  private readonly running = new Map<string, Promise<T>>();

  constructor(private readonly capacity: number) {}

  run(key: string, work: () => Promise<T>): Promise<T> {
    if (this.done.has(key)) return Promise.resolve(this.done.get(key) as T);
    const running = this.running.get(key);
    if (running) return running;
    const started = work()
      .then((result) => {
        this.remember(key, result);
        return result;
      })
      .finally(() => this.running.delete(key));
    this.running.set(key, started);
    return started;
  }

  private remember(key: string, result: T): void {
    this.done.delete(key);
    this.done.set(key, result);
    while (this.done.size > this.capacity) {
      const oldest = this.done.keys().next().value;
      if (oldest === undefined) break;
      this.done.delete(oldest);
    }
  }
}
