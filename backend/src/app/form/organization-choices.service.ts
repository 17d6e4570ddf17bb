import { Injectable } from '@nestjs/common';
import type { OrganizationChoices, OwnerLinkParams } from '@checkin/contract';
import { OwnerAccessService } from '../auth/owner-access.service';
import { CrmContactsGateway } from '../crm/contacts.gateway';

/**
 * For a person tied to several co-ops who opened a link without orgId (ORG_REQUIRED), the co-ops
 * to choose from, by name: only for a valid link, under the same checksum rules as every owner
 * route. `GET /api/organizations` answers with it, and a server-rendered page that would show the
 * choice carries it inside (pages/page-data.ts), so the page lists them as it arrives.
 */
@Injectable()
export class OrganizationChoicesService {
  constructor(
    private readonly access: OwnerAccessService,
    private readonly contacts: CrmContactsGateway,
  ) {}

  async choicesFor(link: Partial<OwnerLinkParams>, clientAddress: string): Promise<OrganizationChoices> {
    const ids = await this.access.organizationsOf(link, clientAddress);
    if (ids.length === 0) return { organizations: [] };
    const organizations = (await this.contacts.organizationNames(ids)).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    return { organizations };
  }
}
