import type { CrmClient } from '../app/crm/crm-client';
import { ApplyError, applyChanges } from './apply';
import { type DesiredSchema } from './desired-schema';
import { type Change, planSchema } from './plan';
import { hintFor, type Mode, type SchemaReport, settingsOf } from './report';
import { readSnapshot } from './snapshot';

/**
 * One run of the installer: read, plan, and with `apply` make the changes, then read again to
 * confirm that nothing is left (and to learn the names CiviCRM assigned).
 */
export async function runSchema(
  crm: CrmClient,
  desired: DesiredSchema,
  options: { mode: Mode; crmLabel: string; onChange?: (change: Change) => void },
): Promise<SchemaReport> {
  const plan = planSchema(desired, await readSnapshot(crm, desired));
  const base = { mode: options.mode, crm: options.crmLabel };
  if (options.mode === 'dry-run') {
    const clean = plan.changes.length === 0 && plan.problems.length === 0;
    return {
      ...base,
      outcome: clean ? 'up-to-date' : 'changes-needed',
      changes: plan.changes,
      remaining: [],
      problems: plan.problems,
      notes: plan.notes,
      groups: plan.groups,
      settings: settingsOf(plan.groups),
    };
  }
  let done = plan.changes;
  let error: string | undefined;
  try {
    await applyChanges(crm, plan.changes, options.onChange);
  } catch (failure) {
    if (!(failure instanceof ApplyError)) throw failure;
    done = plan.changes.slice(0, failure.done);
    error = failure.message + hintFor(failure.reason);
  }
  const after = planSchema(desired, await readSnapshot(crm, desired));
  const clean = !error && after.changes.length === 0 && after.problems.length === 0;
  return {
    ...base,
    outcome: clean ? (done.length === 0 ? 'up-to-date' : 'applied') : 'incomplete',
    changes: done,
    remaining: after.changes,
    problems: after.problems,
    notes: after.notes,
    groups: after.groups,
    settings: settingsOf(after.groups),
    ...(error ? { error } : {}),
  };
}
