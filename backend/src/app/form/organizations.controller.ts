import { Controller, Get, Header, Req } from '@nestjs/common';
import type { OrganizationChoices } from '@checkin/contract';
import type { Request } from 'express';
import { clientAddress, linkParams } from '../auth/owner-access.guard';
import { OwnerAccessService } from '../auth/owner-access.service';
import { CrmContactsGateway } from '../crm/contacts.gateway';

/**
 * GET /api/organizations?cid&cs: for a person tied to several co-ops who opened a link without
 * orgId (ORG_REQUIRED), the co-ops to choose from, by name. Only for a valid link, under the same
 * checksum rules as every owner route; one more round trip for the names.
 */
@Controller('api')
export class OrganizationsController {
  constructor(
    private readonly access: OwnerAccessService,
    private readonly contacts: CrmContactsGateway,
  ) {}

  @Get('organizations')
  @Header('Cache-Control', 'no-store')
  async organizations(@Req() request: Request): Promise<OrganizationChoices> {
    const ids = await this.access.organizationsOf(linkParams(request), clientAddress(request));
    if (ids.length === 0) return { organizations: [] };
    const organizations = (await this.contacts.organizationNames(ids)).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    return { organizations };
  }
}
