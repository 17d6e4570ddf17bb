/**
 * Rotation with overlap (docs/rotating-secrets.md): a signing key may name the key it replaces,
 * `<KEY>_PREVIOUS`, which is still accepted when verifying, never used to sign, until the instant
 * `<KEY>_PREVIOUS_UNTIL`; after it, whatever the previous key signed is refused. The window is an
 * instant rather than a length so that every instance, restarted at any time, closes it at once.
 */

/** The longest window accepted: a forgotten previous key must not stay valid for months. */
export const MAX_PREVIOUS_KEY_WINDOW_DAYS = 7;

/** The keys whose verifiers accept a previous key (each with `_PREVIOUS` and `_PREVIOUS_UNTIL` settings). */
export const ROTATING_KEYS = ['STAFF_LINK_KEY', 'UPLOAD_RECEIPT_KEY'] as const;

export interface PreviousKey {
  key: string;
  /** The previous key verifies nothing from this instant on. */
  until: Date;
}

/** An ISO 8601 instant with its offset, e.g. `2026-11-30T18:00:00Z`. */
export const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export function previousKey(key: string | undefined, until: string | undefined): PreviousKey | undefined {
  if (!key || !until) return undefined;
  return { key, until: new Date(until) };
}

/** The keys a signature is checked against at `now`: the current one first, then the previous one within its window. */
export function verifyingKeys(current: string, previous: PreviousKey | undefined, now: Date): string[] {
  return previous && now.getTime() < previous.until.getTime() ? [current, previous.key] : [current];
}

/** What is wrong with the rotation settings, each naming the setting and the fix. */
export function previousKeyProblems(values: Record<string, unknown>, now = new Date()): string[] {
  const problems: string[] = [];
  for (const name of ROTATING_KEYS) {
    const previous = values[`${name}_PREVIOUS`];
    const until = values[`${name}_PREVIOUS_UNTIL`];
    if (typeof until === 'string' && (!INSTANT.test(until) || Number.isNaN(Date.parse(until)))) {
      problems.push(
        `${name}_PREVIOUS_UNTIL must be an instant with its offset, e.g. 2026-11-30T18:00:00Z (got ${JSON.stringify(until)})`,
      );
      continue;
    }
    if (previous === undefined) {
      if (until !== undefined)
        problems.push(`${name}_PREVIOUS_UNTIL is set without ${name}_PREVIOUS: remove it`);
      continue;
    }
    if (!values[name]) problems.push(`${name}_PREVIOUS is set without ${name}: set ${name} to the new key`);
    if (previous === values[name]) {
      problems.push(`${name}_PREVIOUS is the same as ${name}: it must hold the key being replaced`);
    }
    if (until === undefined) {
      problems.push(
        `${name}_PREVIOUS needs ${name}_PREVIOUS_UNTIL: the instant the previous key stops being accepted, ` +
          `at most ${MAX_PREVIOUS_KEY_WINDOW_DAYS} days ahead (docs/rotating-secrets.md)`,
      );
    } else if (Date.parse(until as string) - now.getTime() > MAX_PREVIOUS_KEY_WINDOW_DAYS * 86_400_000) {
      problems.push(
        `${name}_PREVIOUS_UNTIL is more than ${MAX_PREVIOUS_KEY_WINDOW_DAYS} days ahead: a previous key is accepted for a short overlap only`,
      );
    }
  }
  return problems;
}
