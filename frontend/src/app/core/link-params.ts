import type { OwnerLinkParams } from '@checkin/contract';

/**
 * Reads the owner's personal link (decision 1): `?contactId=P&orgId=O&cid=P&cs=CHECKSUM`.
 * Returns null when cid or cs is missing, so pages can explain instead of calling the API.
 */
export function readOwnerLink(search: string): OwnerLinkParams | null {
  const query = new URLSearchParams(search);
  const cid = query.get('cid')?.trim();
  const cs = query.get('cs')?.trim();
  if (!cid || !cs) return null;
  const link: OwnerLinkParams = { cid, cs };
  const contactId = query.get('contactId')?.trim();
  const orgId = query.get('orgId')?.trim();
  if (contactId) link.contactId = contactId;
  if (orgId) link.orgId = orgId;
  return link;
}

/** The same link's query string, for moving between the form and the report. */
export function ownerLinkQuery(link: OwnerLinkParams): Record<string, string> {
  const query: Record<string, string> = {};
  if (link.contactId) query['contactId'] = link.contactId;
  if (link.orgId) query['orgId'] = link.orgId;
  query['cid'] = link.cid;
  query['cs'] = link.cs;
  return query;
}
