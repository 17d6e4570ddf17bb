import { Inject, Injectable } from '@nestjs/common';
import {
  DEFAULT_PREVIEW_LINK_TTL_HOURS,
  type PreviewLinkRequest,
  type PreviewLinkResponse,
} from '@checkin/contract';
import { OwnerAccessService } from '../auth/owner-access.service';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CRM_CLIENT, type CrmClient } from '../crm/crm-client';
import { CrmError } from '../crm/crm-errors';
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
    @Inject(CRM_CLIENT) private readonly crm: CrmClient,
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
    const [contact] = await this.crm.api4('Contact', 'get', {
      select: ['id'],
      where: [['id', '=', contactId]],
      limit: 1,
    });
    if (!contact) throw Errors.notFound(`No contact has the id ${contactId}.`);
  }

  private async checksumFor(contactId: number, ttlHours: number): Promise<string> {
    const [result] = await this.crm.api4('Contact', 'getChecksum', { contactId, ttl: ttlHours });
    const checksum = result?.['checksum'];
    if (typeof checksum !== 'string' || checksum === '') {
      throw new CrmError('malformed', 'Contact.getChecksum', 'answer has no checksum');
    }
    return checksum;
  }
}
