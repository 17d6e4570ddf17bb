import { Inject, Injectable } from '@nestjs/common';
import type { OwnerLinkParams } from '@checkin/contract';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CrmContactsGateway } from '../crm/contacts.gateway';
import { Errors } from '../errors/app-error';
import { RateLimitService } from '../rate-limit/rate-limit.service';

/** Who a valid owner link lets in: the person and the one organization the request is about. */
export interface OwnerAccess {
  contactId: number;
  orgId: number;
}

const MAX_CACHED_GRANTS = 10_000;
const POSITIVE_ID = /^[1-9]\d{0,9}$/;

/**
 * docs/decisions.md, "Personal links" to "Organization access". The CRM validates the checksum; the person's 'Primary Contact' organizations
 * are read in the same round trip (a read that needs only the link's parameters), and nothing is
 * used before the checksum is known to be valid. A success is cached for at most five minutes,
 * keyed by a hash of (cid, cs); failures never are, and count against the caller's address.
 */
@Injectable()
export class OwnerAccessService {
  // The wall clock (Date.now), with no coarser resolution, so an entry expires exactly as due.
  private readonly grants = new LRUCache<string, number[]>({
    max: MAX_CACHED_GRANTS,
    ttlResolution: 0,
    perf: { now: () => this.now() },
  });

  constructor(
    private readonly contacts: CrmContactsGateway,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly rateLimits: RateLimitService,
  ) {}

  private now(): number {
    return Date.now();
  }

  /**
   * `counter` names the failure counter the check counts against: preview links, made by an
   * admin, have their own, so owners sharing the admin's address cannot block them.
   */
  async authorize(
    link: Partial<OwnerLinkParams>,
    clientAddress: string,
    counter: 'checksum' | 'preview-checksum' = 'checksum',
  ): Promise<OwnerAccess> {
    const cid = parseId(link.cid);
    // Exact: a checksum with spaces around it is not the checksum the CRM made.
    const checksum = typeof link.cs === 'string' ? link.cs : '';
    if (cid === null || !this.contacts.hasChecksumShape(checksum))
      return this.refuseMalformed(clientAddress, counter);

    const organizations = await this.organizationsFor(cid, checksum, clientAddress, counter);

    if (link.contactId !== undefined && link.contactId !== '' && parseId(link.contactId) !== cid) {
      throw Errors.contactMismatch();
    }
    return { contactId: cid, orgId: chooseOrganization(organizations, link.orgId) };
  }

  /**
   * authorize(), then `read` for the access it grants, with the CRM calls of both in one request
   * when the link is not yet known: docs/decisions.md, "Organization access", lets reads that need
   * only the link's parameters travel with the validation. `read` must only read: it starts in the
   * same turn as the validation and the relationship read (so the CRM client sends them as one
   * batch), for the person and organization the link names; its answer is awaited, and returned,
   * only once the checksum is valid and the organization is the person's. A link without orgId,
   * or one already validated, costs no extra call, and is read after authorizing.
   */
  async authorizeWith<T>(
    link: Partial<OwnerLinkParams>,
    clientAddress: string,
    /** `authorized` settles once the link is known good: a read awaits it before any further request. */
    read: (access: OwnerAccess, authorized: Promise<void>) => Promise<T>,
  ): Promise<T> {
    const cid = parseId(link.cid);
    const checksum = typeof link.cs === 'string' ? link.cs : '';
    const orgId = link.orgId === undefined || link.orgId === '' ? null : parseId(link.orgId);
    const namesAnother =
      link.contactId !== undefined && link.contactId !== '' && parseId(link.contactId) !== cid;
    // Reads go early only for a link that can pass: one already refused by its own parameters waits.
    if (
      cid === null ||
      orgId === null ||
      namesAnother ||
      !this.contacts.hasChecksumShape(checksum) ||
      this.grants.has(grantKey(cid, checksum))
    ) {
      return read(await this.authorize(link, clientAddress), Promise.resolve());
    }
    let confirm = (): void => undefined;
    let refuse = (_error: unknown): void => undefined;
    const authorized = new Promise<void>((resolve, reject) => {
      confirm = resolve;
      refuse = reject;
    });
    authorized.catch(() => undefined);
    let early: Promise<T> | undefined;
    try {
      const organizations = await this.organizationsFor(cid, checksum, clientAddress, 'checksum', () => {
        early = read({ contactId: cid, orgId }, authorized);
        // Awaited below only on success; a failed validation answers its own error, not the read's.
        early.catch(() => undefined);
      });
      chooseOrganization(organizations, link.orgId);
    } catch (error) {
      // The early read sends nothing more: its next request waits for this.
      refuse(error);
      throw error;
    }
    confirm();
    return early ?? read({ contactId: cid, orgId }, authorized);
  }

  /**
   * The organizations a valid link's person is the primary contact of, whatever orgId says: for
   * the page that asks a person with several co-ops which one they mean. Same checksum rules,
   * cache and failure limit as authorize().
   */
  async organizationsOf(link: Partial<OwnerLinkParams>, clientAddress: string): Promise<number[]> {
    const cid = parseId(link.cid);
    const checksum = typeof link.cs === 'string' ? link.cs : '';
    if (cid === null || !this.contacts.hasChecksumShape(checksum))
      return this.refuseMalformed(clientAddress, 'checksum');
    const organizations = await this.organizationsFor(cid, checksum, clientAddress, 'checksum');
    if (link.contactId !== undefined && link.contactId !== '' && parseId(link.contactId) !== cid) {
      throw Errors.contactMismatch();
    }
    return organizations;
  }

  /**
   * A link whose checksum cannot be one CiviCRM issued: a wrong checksum, counted against the
   * address like one CiviCRM refused (429 once the limit is reached), never sent to CiviCRM.
   */
  private async refuseMalformed(
    clientAddress: string,
    counter: 'checksum' | 'preview-checksum',
  ): Promise<never> {
    await this.rateLimits.reserveAttempt(counter, clientAddress);
    throw Errors.checksumInvalid();
  }

  /** Forgets every cached grant (tests, and an operator's restart, need nothing else). */
  clear(): void {
    this.grants.clear();
  }

  private async organizationsFor(
    cid: number,
    checksum: string,
    clientAddress: string,
    counter: 'checksum' | 'preview-checksum',
    /** Reads to start in the same turn as the validation's calls (authorizeWith). */
    alongside?: () => void,
  ): Promise<number[]> {
    const key = grantKey(cid, checksum);
    const cached = this.grants.get(key);
    if (cached) return cached;

    // Counted as a failure until the CRM says otherwise (issue: concurrent guesses).
    await this.rateLimits.reserveAttempt(counter, clientAddress);
    // A check the CRM could not answer keeps its reservation, counted like a wrong checksum
    // (docs/decisions.md, "Checksum failures"): else a link that makes CiviCRM fail would be a
    // free guess, and a free CiviCRM request, every time.
    const validation = Promise.all([
      this.contacts.validateChecksum(cid, checksum),
      this.contacts.primaryContactOrganizations(cid),
    ]);
    alongside?.();
    const [valid, organizations] = await validation;
    if (!valid) throw Errors.checksumInvalid();
    await this.rateLimits.releaseAttempt(counter, clientAddress);
    this.remember(key, organizations);
    return organizations;
  }

  private remember(key: string, organizations: number[]): void {
    if (this.config.checksumCacheMs <= 0) return;
    this.grants.set(key, organizations, { ttl: this.config.checksumCacheMs });
  }
}

function chooseOrganization(organizations: number[], requested: string | undefined): number {
  if (requested !== undefined && requested !== '') {
    const orgId = parseId(requested);
    if (orgId === null || !organizations.includes(orgId)) throw Errors.orgNotAllowed();
    return orgId;
  }
  if (organizations.length === 0) throw Errors.noOrganization();
  if (organizations.length > 1) throw Errors.orgRequired();
  return organizations[0] as number;
}

function parseId(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : null;
  if (typeof value !== 'string' || !POSITIVE_ID.test(value.trim())) return null;
  return Number(value.trim());
}

function grantKey(cid: number, checksum: string): string {
  return createHash('sha256').update(`${cid}\u0000${checksum}`).digest('hex');
}
