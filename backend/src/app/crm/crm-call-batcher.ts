import type { Api4Call, Api4CallResult, CrmRow } from './crm-client';
import { CrmError } from './crm-errors';
import { isPhpJsonReadable, unreadableCall } from './php-json';

/**
 * More than any route reads at once. The form's first request holds the checksum check, the
 * relationships, five reads, one per file field and the schema when cold (16 sufficed); its
 * second, only for a long co-op, one `limit 1` read per prefilled check-in field its newest
 * check-ins left unsettled, 38 at most (FormDataService.activityPrefill; its spec checks the bound
 * holds them), so that read stays one request. A batch holds one request's reads only, so the
 * bound never spreads a crowd, it only caps one request.
 */
export const MAX_CALLS_PER_BATCH = 40;

type Settle = { resolve: (rows: CrmRow[]) => void; reject: (error: unknown) => void };

interface Pending {
  call: Api4Call;
  settle: Settle;
}

/** The batch of calls made outside any request (start-up checks, timers). */
const NO_REQUEST = 'no-request';

/**
 * Gathers the reads a request handler starts in one turn of the event loop into one CiviCRM
 * request (docs/performance.md, "One request per page read"). Every CiviCRM request pays its
 * start-up (about 70 SQL statements) before any work, so the form's five reads cost five
 * start-ups when sent apart and one when sent as a batch; the calls keep their order.
 *
 * A turn ends when Node runs its `setImmediate` callbacks: reads started after awaiting an
 * already settled promise (a warm cache) still join; a read that waits for another answer
 * starts the next batch. A lone read goes as a plain call, so its wire form is unchanged.
 *
 * A batch only ever holds the reads of one request (`scope`, the request's id: see
 * logging/request-context.ts): CiviCRM fails a batch as a whole when it cannot read one of its
 * calls, and one request's bad input must not fail another's reads, nor the readiness probe. A
 * call CiviCRM could not read (php-json.ts) is refused alone, before it joins any batch.
 */
export class CrmCallBatcher {
  private readonly queues = new Map<string, Pending[]>();

  constructor(
    private readonly sendOne: (call: Api4Call) => Promise<CrmRow[]>,
    private readonly sendBatch: (calls: Record<string, Api4Call>) => Promise<Record<string, Api4CallResult>>,
    private readonly scope: () => string | undefined = () => undefined,
  ) {}

  add<T extends CrmRow>(call: Api4Call): Promise<T[]> {
    if (!isPhpJsonReadable(call)) return Promise.reject(unreadableCall(call));
    const scope = this.scope() ?? NO_REQUEST;
    return new Promise<T[]>((resolve, reject) => {
      let queue = this.queues.get(scope);
      if (!queue) {
        queue = [];
        this.queues.set(scope, queue);
        setImmediate(() => this.flush(scope));
      }
      queue.push({ call, settle: { resolve: resolve as Settle['resolve'], reject } });
    });
  }

  private flush(scope: string): void {
    const queued = this.queues.get(scope) ?? [];
    this.queues.delete(scope);
    // A request reading more than a batch holds still spreads over the site's workers: CiviCRM
    // runs one batch in one worker, one call after another.
    for (let start = 0; start < queued.length; start += MAX_CALLS_PER_BATCH) {
      this.send(queued.slice(start, start + MAX_CALLS_PER_BATCH));
    }
  }

  private send(pending: Pending[]): void {
    const [only] = pending;
    if (pending.length === 1 && only) {
      this.sendOne(only.call).then(only.settle.resolve, only.settle.reject);
      return;
    }
    // Names that say what each call is, for CiviCRM's log and the emulator's record.
    const calls: Record<string, Api4Call> = {};
    const byName = new Map<string, Settle>();
    pending.forEach(({ call, settle }, index) => {
      const name = `${index}:${call[0]}.${call[1]}`;
      calls[name] = call;
      byName.set(name, settle);
    });
    this.sendBatch(calls).then(
      (results) => {
        for (const [name, settle] of byName) {
          const result = results[name];
          if (result && 'rows' in result) settle.resolve(result.rows);
          else
            settle.reject(
              result?.error ?? new CrmError('malformed', name, 'the batch answer lacks this call'),
            );
        }
      },
      (error: unknown) => {
        for (const settle of byName.values()) settle.reject(error);
      },
    );
  }
}
