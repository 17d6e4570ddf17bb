import type { Api4Condition } from './crm-client';
import { ACTIVITY_TYPE_NAME } from './crm-names';

/**
 * The one filter for "the check-ins of this organization", used by the check-in list, the stage
 * lookup and the submission lookups.
 *
 * An explicit INNER join on ActivityContact limited to the target record type, filtered by the
 * organization's id. `target_contact_id CONTAINS <id>` answers the same rows in the same order,
 * but CiviCRM runs it as a GROUP_CONCAT … REGEXP subquery over every check-in of every
 * organization, so its cost grows with the whole CRM instead of the co-op (docs/performance.md,
 * "Check-in reads").
 */
export const CHECK_IN_TARGET_JOIN = [
  'ActivityContact AS tgt',
  'INNER',
  ['tgt.activity_id', '=', 'id'],
  ['tgt.record_type_id:name', '=', '"Activity Targets"'],
] as const;

export interface CheckInFilter {
  join: unknown[];
  where: Api4Condition[];
}

/** The join and conditions that select the organization's check-ins; `join` goes first in the call's join list. */
export function checkInsOf(orgId: number): CheckInFilter {
  return {
    join: [CHECK_IN_TARGET_JOIN],
    where: [
      ['activity_type_id:name', '=', ACTIVITY_TYPE_NAME],
      ['tgt.contact_id', '=', orgId],
    ],
  };
}
