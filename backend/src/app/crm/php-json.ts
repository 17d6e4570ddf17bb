import type { Api4Call } from './crm-client';
import { CrmError } from './crm-errors';

/**
 * What CiviCRM can read of what the service sends. Its endpoints decode the parameters with
 * PHP's json_decode, which refuses the whole text when one string holds a lone UTF-16 surrogate
 * ("Single unpaired UTF-16 surrogate"): 6.14 then answers its error page, 5.81 an empty batch,
 * and every call of that request fails (docs/civicrm-wire-protocol.md, "Batch"). JavaScript
 * strings may hold one (`JSON.parse('"\\ud800"')`), so every value is checked before it is sent.
 */

/** A UTF-16 surrogate without its pair. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether every string in the value (keys included) is one PHP's json_decode accepts. */
export function isPhpJsonReadable(value: unknown): boolean {
  if (typeof value === 'string') return !LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.every(isPhpJsonReadable);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).every(([key, item]) => !LONE_SURROGATE.test(key) && isPhpJsonReadable(item));
  }
  return true;
}

/** The error a call CiviCRM could not read gets instead of being sent: it fails alone. */
export function unreadableCall([entity, action]: Api4Call): CrmError {
  return new CrmError('rejected', `${entity}.${action}`, 'a value is not well-formed Unicode; not sent');
}
