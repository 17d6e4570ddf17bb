import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { RedisConnection } from '../rate-limit/redis-connection';

/** How long a Redis lock may be held before it lapses (a crashed holder must not block for ever). */
const LOCK_TTL_MS = 60_000;
const POLL_MS = 50;
/** Releases the lock only if this holder still owns it. */
const RELEASE_SCRIPT = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

/**
 * One submission at a time per submission id: within this process always, and across instances
 * through Redis when THROTTLE_REDIS_URL is set. It narrows the window in which two attempts of
 * one submission can both find nothing and both create; the check after each create
 * (SubmitService) closes what remains (docs/decisions.md, "Idempotent submit").
 */
@Injectable()
export class SubmissionLock {
  private readonly local = new Map<string, Promise<unknown>>();

  constructor(private readonly redis: RedisConnection) {}

  async run<T>(key: string, work: () => Promise<T>, waitMs: number): Promise<T> {
    const previous = this.local.get(key) ?? Promise.resolve();
    const mine = previous.catch(() => undefined).then(() => this.runShared(key, work, waitMs));
    this.local.set(key, mine);
    try {
      return await mine;
    } finally {
      if (this.local.get(key) === mine) this.local.delete(key);
    }
  }

  private async runShared<T>(key: string, work: () => Promise<T>, waitMs: number): Promise<T> {
    const client = this.redis.client;
    if (!client) return work();
    const redisKey = `checkin:submission-lock:${key}`;
    const token = randomUUID();
    const deadline = Date.now() + waitMs;
    // Waiting longer than the holder's own CRM deadline means the holder is gone: go ahead, the
    // check after the create still keeps one activity.
    while ((await client.set(redisKey, token, 'PX', LOCK_TTL_MS, 'NX')) !== 'OK' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    try {
      return await work();
    } finally {
      await client.eval(RELEASE_SCRIPT, 1, redisKey, token).catch(() => undefined);
    }
  }
}
