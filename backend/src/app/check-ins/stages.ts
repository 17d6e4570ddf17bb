import {
  MAX_STAGE_RANK,
  type OptionItem,
  type StageInfo,
  type StageOption,
  type StageRank,
} from '@checkin/contract';

/**
 * The organization's current stage is derived, never stored by the service: the Stage of the
 * newest check-in that has one (date desc, then id desc), else Inquiry (docs/decisions.md, "Stages").
 * The check-ins gateway's stage lookup applies the same rule in the CRM.
 */
export const INQUIRY: StageInfo = { rank: 0, value: null, label: 'Inquiry' };

/** The rule applied to check-ins already read newest first: the report and the staff report need no lookup of their own. */
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

/** Rank is the position by option weight, 0..5; rank 0 is Inquiry (docs/decisions.md, "Stages"). */
export function rankStages(items: readonly OptionItem[]): StageOption[] {
  return items.slice(0, MAX_STAGE_RANK + 1).map((item, index) => ({
    rank: index as StageRank,
    value: item.value,
    label: item.label,
  }));
}
