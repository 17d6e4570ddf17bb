import { DOCUMENT, inject, Injectable, InjectionToken } from '@angular/core';
import { type FieldValues, FORM_ID } from '@checkin/contract';
import { formatClockTime, formatLongDate } from '../shared/dates';

/**
 * The browser's draft of a check-in (docs/decisions.md, "Drafts"), in local storage under
 * `${FORM_ID}:${contactId}:${orgId}`. It holds the editable answers only (identity is never
 * stored), when they were saved, and the id of a submission that was sent but not confirmed, so
 * a retry of the same answers reuses it and the server can recognise it (docs/decisions.md, "Idempotent submit").
 */
export interface Draft {
  /** ISO 8601. */
  savedAt: string;
  values: FieldValues;
  pendingSubmission?: PendingSubmission;
}

export interface PendingSubmission {
  id: string;
  /** fingerprintOf(the submitted values): a retry with other answers is a new submission. */
  fingerprint: string;
}

/** Local storage, or null where the browser refuses it (some private modes, blocked storage). */
export const DRAFT_STORAGE = new InjectionToken<Storage | null>('DRAFT_STORAGE', {
  providedIn: 'root',
  factory: () => {
    try {
      return inject(DOCUMENT).defaultView?.localStorage ?? null;
    } catch {
      return null;
    }
  },
});

export function draftKey(contactId: number | string, orgId: number | string): string {
  return `${FORM_ID}:${contactId}:${orgId}`;
}

@Injectable({ providedIn: 'root' })
export class DraftStore {
  private readonly storage = inject(DRAFT_STORAGE);

  load(key: string): Draft | null {
    const text = this.read(key);
    if (text === null) return null;
    try {
      const parsed: unknown = JSON.parse(text);
      return isDraft(parsed) ? parsed : null;
    } catch {
      return null;
    }
  }

  /**
   * Saves the answers, keeping a pending submission's id. Returns the saved draft, or null when
   * the browser would not store it (full or blocked storage), so the page can say so.
   */
  save(key: string, values: FieldValues, now = new Date()): Draft | null {
    const pendingSubmission = this.load(key)?.pendingSubmission;
    const draft: Draft = {
      savedAt: now.toISOString(),
      values,
      ...(pendingSubmission ? { pendingSubmission } : {}),
    };
    return this.write(key, draft) ? draft : null;
  }

  /**
   * The submissionId for sending these answers: the pending one when the same answers were sent
   * before without a confirmation, otherwise a new one. It is saved with the draft first, so a
   * reload and retry reuse it too.
   */
  submissionIdFor(key: string, values: FieldValues, fingerprint: string, now = new Date()): string {
    const pending = this.load(key)?.pendingSubmission;
    const id = pending?.fingerprint === fingerprint ? pending.id : crypto.randomUUID();
    this.write(key, { savedAt: now.toISOString(), values, pendingSubmission: { id, fingerprint } });
    return id;
  }

  /** Only after the server confirmed the submission (201). */
  clear(key: string): void {
    try {
      this.storage?.removeItem(key);
    } catch {
      // Nothing stored can be removed: nothing to do.
    }
  }

  private read(key: string): string | null {
    try {
      return this.storage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  }

  private write(key: string, draft: Draft): boolean {
    if (!this.storage) return false;
    try {
      this.storage.setItem(key, JSON.stringify(draft));
      return true;
    } catch {
      return false;
    }
  }
}

function isDraft(value: unknown): value is Draft {
  if (typeof value !== 'object' || value === null) return false;
  const draft = value as Partial<Draft>;
  if (typeof draft.savedAt !== 'string' || Number.isNaN(Date.parse(draft.savedAt))) return false;
  if (typeof draft.values !== 'object' || draft.values === null || Array.isArray(draft.values)) return false;
  const pending = draft.pendingSubmission;
  return pending === undefined || (typeof pending.id === 'string' && typeof pending.fingerprint === 'string');
}

/** When the draft was saved, in the reader's own clock style ("14:05" or "2:05 PM"). */
export function formatSavedTime(savedAt: string, locale?: string): string {
  return formatClockTime(new Date(savedAt), locale);
}

/** "at 14:05" for a draft saved today, "on November 20, 2026 at 14:05" for an older one. */
export function describeSavedAt(savedAt: string, now = new Date(), locale?: string): string {
  const saved = new Date(savedAt);
  const time = `at ${formatSavedTime(savedAt, locale)}`;
  if (saved.toDateString() === now.toDateString()) return time;
  return `on ${formatLongDate(saved, locale)} ${time}`;
}
