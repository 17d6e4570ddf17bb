import { type FieldValues, isFileValue } from '@checkin/contract';

/**
 * File values in the staff report: collecting the ids the one Attachment lookup asks for, and
 * giving each file value the signed URL it answered; and the contacts ContactReference fields
 * name, shown by name. Pure functions.
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

/** The contact ids the named (ContactReference) fields hold, ascending. */
export function contactIdsIn(valueMaps: Iterable<FieldValues>, fields: ReadonlySet<string>): number[] {
  const ids = new Set<number>();
  for (const values of valueMaps) {
    for (const name of fields) {
      const id = Number(values[name]);
      if (Number.isSafeInteger(id) && id > 0) ids.add(id);
    }
  }
  return [...ids].sort((a, b) => a - b);
}

/**
 * The same values with each contact id of the named fields replaced by the contact's name; a
 * contact CiviCRM did not answer (in the trash, or gone) reads "Contact <id>".
 */
export function withContactNames(
  values: FieldValues,
  fields: ReadonlySet<string>,
  names: ReadonlyMap<number, string>,
): FieldValues {
  if (fields.size === 0) return values;
  const result: FieldValues = { ...values };
  for (const name of fields) {
    const value = values[name];
    if (value === undefined || value === null || value === '') continue;
    const id = Number(value);
    result[name] = names.get(id) ?? `Contact ${String(value)}`;
  }
  return result;
}
