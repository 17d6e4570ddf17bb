import { ownerLinkFromQuery, type OwnerLinkParams } from '@checkin/contract';

/**
 * Reads the owner's personal link (docs/decisions.md, "Personal links"): `?contactId=P&orgId=O&cid=P&cs=CHECKSUM`.
 * Returns null when cid or cs is missing, so pages can explain instead of calling the API.
 */
export function readOwnerLink(search: string): OwnerLinkParams | null {
  return ownerLinkFromQuery(new URLSearchParams(search));
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
