import type { Api4Call, Api4CallResult, CrmRow } from './crm-client';
import { CrmError } from './crm-errors';

type Settle = { resolve: (rows: CrmRow[]) => void; reject: (error: unknown) => void };

interface Pending {
  call: Api4Call;
  settle: Settle;
}

/**
 * Gathers the reads a request handler starts in one turn of the event loop into one CiviCRM
 * request (docs/performance.md, "One request per page read"). Every CiviCRM request pays its
 * start-up (about 70 SQL statements) before any work, so the form's five reads cost five
 * start-ups when sent apart and one when sent as a batch; the calls keep their order.
 *
 * A turn ends when Node runs its `setImmediate` callbacks: reads started after awaiting an
 * already settled promise (a warm cache) still join; a read that waits for another answer
 * starts the next batch. A lone read goes as a plain call, so its wire form is unchanged.
 */
export class CrmCallBatcher {
  private queue: Pending[] = [];

  constructor(
    private readonly sendOne: (call: Api4Call) => Promise<CrmRow[]>,
    private readonly sendBatch: (calls: Record<string, Api4Call>) => Promise<Record<string, Api4CallResult>>,
  ) {}

  add<T extends CrmRow>(call: Api4Call): Promise<T[]> {
    return new Promise<T[]>((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(() => this.flush());
      this.queue.push({ call, settle: { resolve: resolve as Settle['resolve'], reject } });
    });
  }

  private flush(): void {
    const pending = this.queue;
    this.queue = [];
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
