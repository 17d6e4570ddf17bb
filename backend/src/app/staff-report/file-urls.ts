import { type FieldValues, isFileValue } from '@checkin/contract';

/**
 * File values in the staff report: collecting the ids the one Attachment lookup asks for, and
 * giving each file value the signed URL it answered. Pure functions.
 */

/** Every distinct file id referenced by these value maps, ascending. */
export function collectFileIds(valueMaps: Iterable<FieldValues>): number[] {
  const ids = new Set<number>();
  for (const values of valueMaps) {
    for (const value of Object.values(values)) if (isFileValue(value)) ids.add(value.id);
  }
  return [...ids].sort((a, b) => a - b);
}

/** The same values with `url` on every file value the lookup knows. */
export function withFileUrls(values: FieldValues, urls: ReadonlyMap<number, string>): FieldValues {
  const result: FieldValues = {};
  for (const [name, value] of Object.entries(values)) {
    const url = isFileValue(value) ? urls.get(value.id) : undefined;
    result[name] = isFileValue(value) && url ? { ...value, url } : value;
  }
  return result;
}
