import { Inject, Injectable } from '@nestjs/common';
import type { StageInfo, StageOption } from '@checkin/contract';
import { CRM_CLIENT, type CrmClient } from './crm-client';
import { checkInsOf } from './check-in-filter';
import { ACTIVITY_STAGE_FIELD } from './crm-names';
import { checkRows } from './crm-rows';

export const INQUIRY: StageInfo = { rank: 0, value: null, label: 'Inquiry' };

/**
 * The organization's current stage is derived, never stored by the service: the Stage of the
 * newest check-in activity that has one (activity_date_time desc, then id desc), else Inquiry.
 */
@Injectable()
export class StageService {
  constructor(@Inject(CRM_CLIENT) private readonly crm: CrmClient) {}

  /** The stored Stage value of the newest stage-bearing check-in, or null. */
  async currentStageValue(orgId: number): Promise<string | null> {
    const checkIns = checkInsOf(orgId);
    const rows = await this.crm.api4('Activity', 'get', {
      select: ['id', ACTIVITY_STAGE_FIELD],
      join: checkIns.join,
      where: [...checkIns.where, [ACTIVITY_STAGE_FIELD, 'IS NOT EMPTY']],
      orderBy: { activity_date_time: 'DESC', id: 'DESC' },
      limit: 1,
    });
    const [newest] = checkRows('Activity.get', rows, { id: 'id' });
    return stageValueOf(newest?.[ACTIVITY_STAGE_FIELD]);
  }
}

/** A Stage column as the CRM answers it: empty means no stage. */
export function stageValueOf(value: unknown): string | null {
  return value === undefined || value === null || value === '' ? null : String(value);
}

/**
 * The same rule as currentStageValue, applied to check-ins already read newest first (date, then
 * id): the report and the staff report need no stage lookup of their own.
 */
export function newestStageValue(checkIns: readonly { stageValue: string | null }[]): string | null {
  return checkIns.find((checkIn) => checkIn.stageValue !== null)?.stageValue ?? null;
}

/** Resolves a stored stage value to its rank and label; unknown or absent values are Inquiry. */
export function toStageInfo(value: string | null, stages: readonly StageOption[]): StageInfo {
  if (value === null) return { ...INQUIRY, label: stages[0]?.label ?? INQUIRY.label };
  const stage = stages.find((option) => option.value === value);
  return stage
    ? { rank: stage.rank, value: stage.value, label: stage.label }
    : { rank: 0, value, label: value };
}
