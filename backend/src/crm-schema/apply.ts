import type { Api4Params, CrmClient, CrmRow } from '../app/crm/crm-client';
import type { Change, Ref } from './plan';

export class ApplyError extends Error {
  constructor(
    readonly change: Change,
    readonly done: number,
    readonly reason: unknown,
  ) {
    super(`${change.summary}: ${reason instanceof Error ? reason.message : String(reason)}`);
    this.name = 'ApplyError';
  }
}

function isRef(value: unknown): value is Ref {
  return typeof value === 'object' && value !== null && '$ref' in value && 'field' in value;
}

/** Replaces every Ref (at any depth) by the value the referenced change's answer holds. */
export function resolveRefs<T>(value: T, answers: ReadonlyMap<string, CrmRow>): T {
  if (isRef(value)) {
    const answer = answers.get(value.$ref);
    const resolved = answer?.[value.field];
    if (resolved === undefined || resolved === null) {
      throw new Error(`nothing to refer to: ${value.$ref}.${value.field} was not created`);
    }
    return resolved as T;
  }
  if (Array.isArray(value)) return value.map((item: unknown) => resolveRefs(item, answers)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, resolveRefs(item, answers)]),
    ) as T;
  }
  return value;
}

/**
 * Runs the changes in order, one CRM call each. Stops at the first failure with the count of
 * changes done, so the message can say what is left; running the installer again plans only
 * what is still missing.
 */
export async function applyChanges(
  crm: CrmClient,
  changes: readonly Change[],
  onDone: (change: Change) => void = () => undefined,
): Promise<void> {
  const answers = new Map<string, CrmRow>();
  for (const [index, change] of changes.entries()) {
    try {
      const params: Api4Params = resolveRefs(change.params, answers);
      const rows = await crm.api4(change.entity, change.action, params);
      if (change.ref) {
        const [row] = rows;
        if (!row) throw new Error('the CRM answered no record');
        answers.set(change.ref, row);
      }
    } catch (error) {
      throw new ApplyError(change, index, error);
    }
    onDone(change);
  }
}
