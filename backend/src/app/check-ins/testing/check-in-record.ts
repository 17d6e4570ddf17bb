import type { FieldValues } from '@checkin/contract';
import type { CheckInRecord } from '../check-in-record';

/** A check-in as CrmCheckInsGateway.list answers it, for specs: nothing cleared, no subject or recorder unless given. */
export function checkInRecord(
  id: number,
  date: string,
  values: FieldValues,
  more: Partial<Omit<CheckInRecord, 'id' | 'date' | 'values'>> = {},
): CheckInRecord {
  return {
    id,
    date,
    stageValue: null,
    values,
    cleared: new Set(),
    subject: null,
    recordedBy: null,
    position: { crmDate: date.replace('T', ' ').slice(0, 19), id },
    ...more,
  };
}

/** A check-in at a stage (or none), for the specs of the pages that chart a history. */
export function stagedCheckIn(
  id: number,
  date: string,
  values: FieldValues,
  stageValue: string | null = null,
): CheckInRecord {
  return checkInRecord(id, date, values, { stageValue });
}
