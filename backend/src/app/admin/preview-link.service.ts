import { Inject, Injectable } from '@nestjs/common';
import {
  DEFAULT_PREVIEW_LINK_TTL_HOURS,
  type PreviewLinkRequest,
  type PreviewLinkResponse,
} from '@checkin/contract';
import { OwnerAccessService } from '../auth/owner-access.service';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CrmContactsGateway } from '../crm/contacts.gateway';
import { Errors } from '../errors/app-error';
import { expiryOf, previewLinks } from './preview-links';

/**
 * docs/decisions.md, "Preview links": links for an email, built from a checksum the CRM makes (`Contact.getChecksum`).
 * Before answering, the new link is put through the owners' own check (OwnerAccessService), so
 * a link is handed out only if it opens: the checksum is valid and the organization is tied
 * to the person by an active 'Primary Contact' relationship (or is the person's only one).
 */
@Injectable()
export class PreviewLinkService {
  constructor(
    private readonly contacts: CrmContactsGateway,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly ownerAccess: OwnerAccessService,
  ) {}

  async create(request: PreviewLinkRequest, clientAddress: string): Promise<PreviewLinkResponse> {
    await this.assertContactExists(request.contactId);
    const ttlHours = request.ttlHours ?? DEFAULT_PREVIEW_LINK_TTL_HOURS;
    // Read the clock before the CRM signs, so the stated expiry is never later than the real one.
    const issuedAt = new Date();
    const checksum = await this.checksumFor(request.contactId, ttlHours);
    const access = await this.ownerAccess.authorize(
      { cid: String(request.contactId), cs: checksum, orgId: request.orgId?.toString() },
      clientAddress,
      'preview-checksum',
    );
    return previewLinks({
      publicBaseUrl: this.config.publicBaseUrl,
      contactId: access.contactId,
      orgId: access.orgId,
      checksum,
      expiresAt: expiryOf(ttlHours, issuedAt),
    });
  }

  private async assertContactExists(contactId: number): Promise<void> {
    if (!(await this.contacts.contactExists(contactId)))
      throw Errors.notFound(`No contact has the id ${contactId}.`);
  }

  private checksumFor(contactId: number, ttlHours: number): Promise<string> {
    return this.contacts.getChecksum(contactId, ttlHours);
  }
}
