import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** An incoming X-Request-Id is kept only when it is a short token: no spaces, quotes or control characters. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:=-]{1,128}$/;

/** The proxy's request id when it is sane, otherwise a new one. */
export function requestIdFrom(incoming: string | undefined): string {
  return incoming !== undefined && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Runs `work` (the rest of a request's handling) with its request id visible to every log line. */
export function runWithRequestId<T>(requestId: string, work: () => T): T {
  return storage.run({ requestId }, work);
}

/** The id of the request being handled, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
