import type { ModelStore } from './store';
import { DEFAULT_CHECKSUM_TTL_HOURS, type CrmRow } from './types';
import { fail, md5, safeEqual } from './values';

/** Contact checksums (Contact.getChecksum, Contact.validateChecksum). */
export class ContactChecksums {
  constructor(private readonly store: ModelStore) {}

  getChecksum(contactIdValue: unknown, ttlValue: unknown): CrmRow {
    const contactId = contactIdParam(contactIdValue);
    if (!this.store.state.tables.Contact.has(contactId)) fail(`Contact ${contactId} not found`);
    const ttl = ttlValue === undefined || ttlValue === null ? DEFAULT_CHECKSUM_TTL_HOURS : ttlValue;
    if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 0) {
      fail('ttl must be a non-negative whole number of hours');
    }
    const live = ttl === 0 ? 'inf' : String(ttl);
    const timestamp = Math.floor(this.store.now().getTime() / 1000);
    return { id: contactId, checksum: this.sign(`contact:${contactId}`, timestamp, live) };
  }

  validateChecksum(contactIdValue: unknown, checksum: unknown): boolean {
    const contactId = contactIdParam(contactIdValue);
    if (typeof checksum !== 'string') return fail('Mandatory parameter missing: checksum');
    if (!this.store.state.tables.Contact.has(contactId)) return false;
    const fixed = this.store.state.fixedChecksums.get(contactId) ?? [];
    if (fixed.some((candidate) => safeEqual(candidate, checksum))) return true;
    return this.verifySignature(`contact:${contactId}`, checksum);
  }

  /** Makes every later checksum check for this contact also accept `checksum` as given. */
  setFixedChecksum(contactId: number, checksum: string): void {
    const fixed = this.store.state.fixedChecksums;
    fixed.set(contactId, [...(fixed.get(contactId) ?? []), checksum]);
  }

  /** `{md5hex}_{unixTs}_{hours|inf}`, the shape CiviCRM's checksums have. */
  private sign(subject: string, timestamp: number, live: string): string {
    const hash = md5(`${this.store.state.secret}|${subject}|${timestamp}|${live}`);
    return `${hash}_${timestamp}_${live}`;
  }

  private verifySignature(subject: string, signature: string): boolean {
    const match = /^([0-9a-f]{32})_(\d+)_(\d+|inf)$/.exec(signature);
    if (!match) return false;
    const [, , timestampText = '', live = ''] = match;
    const timestamp = Number(timestampText);
    if (!safeEqual(this.sign(subject, timestamp, live), signature)) return false;
    if (live === 'inf') return true;
    return this.store.now().getTime() / 1000 <= timestamp + Number(live) * 3600;
  }
}

function contactIdParam(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return fail('Mandatory parameter missing or invalid: contactId');
}
