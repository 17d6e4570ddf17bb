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
