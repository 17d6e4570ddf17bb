import type { PreviewLinkResponse } from '@checkin/contract';

export interface PreviewLinkParts {
  publicBaseUrl: string;
  contactId: number;
  orgId: number;
  checksum: string;
  /** Null when the checksum never expires. */
  expiresAt: Date | null;
}

/**
 * The owner's form and report links (docs/decisions.md, "Personal links") and the staff page link. The staff link holds
 * no key: a key never travels in an email; staff add `&key=` themselves.
 */
export function previewLinks(parts: PreviewLinkParts): PreviewLinkResponse {
  const owner = new URLSearchParams({
    contactId: String(parts.contactId),
    orgId: String(parts.orgId),
    cid: String(parts.contactId),
    cs: parts.checksum,
  }).toString();
  const staff = new URLSearchParams({ orgId: String(parts.orgId) }).toString();
  return {
    formUrl: `${parts.publicBaseUrl}/?${owner}`,
    reportUrl: `${parts.publicBaseUrl}/report?${owner}`,
    staffUrl: `${parts.publicBaseUrl}/staff?${staff}`,
    expiresAt: parts.expiresAt?.toISOString() ?? null,
  };
}

/** When a checksum made now with this lifetime stops working; 0 hours means never. */
export function expiryOf(ttlHours: number, now: Date): Date | null {
  return ttlHours === 0 ? null : new Date(now.getTime() + ttlHours * 3_600_000);
}
