/**
 * Fixed-window counters shared by every instance of the service when Redis is configured
 * (THROTTLE_REDIS_URL: RedisRateLimitStore), per process otherwise (MemoryRateLimitStore).
 */
export interface RateLimitStore {
  /** Counts one hit on `key` and answers the count in the current window. */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  /** The count in the current window, without counting. */
  peek(key: string): Promise<WindowCount>;
  /** Takes back one hit of the current window (a reserved attempt that turned out fine). */
  release(key: string): Promise<void>;
}

export interface WindowCount {
  count: number;
  /** Milliseconds until the window resets (0 when no window is open). */
  resetInMs: number;
}

export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.now();
    this.sweep(now);
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      this.windows.set(key, { count: 1, resetAt: now + windowMs });
      return { count: 1, resetInMs: windowMs };
    }
    window.count += 1;
    return { count: window.count, resetInMs: window.resetAt - now };
  }

  async peek(key: string): Promise<WindowCount> {
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) return { count: 0, resetInMs: 0 };
    return { count: window.count, resetInMs: window.resetAt - now };
  }

  async release(key: string): Promise<void> {
    const window = this.windows.get(key);
    if (window && window.resetAt > this.now() && window.count > 0) window.count -= 1;
  }

  /** Drops expired windows now and then, so memory stays bounded by live clients. */
  private sweep(now: number): void {
    if (this.windows.size < 10_000) return;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
