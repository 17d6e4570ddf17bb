import { Controller, Get, Header, Inject, Req } from '@nestjs/common';
import type { OrganizationChoices } from '@checkin/contract';
import type { Request } from 'express';
import { clientAddress, linkParams } from '../auth/owner-access.guard';
import { OwnerAccessService } from '../auth/owner-access.service';
import { CRM_CLIENT, type CrmClient } from '../crm/crm-client';

/**
 * GET /api/organizations?cid&cs: for a person tied to several co-ops who opened a link without
 * orgId (ORG_REQUIRED), the co-ops to choose from, by name. Only for a valid link, under the same
 * checksum rules as every owner route; one more round trip for the names.
 */
@Controller('api')
export class OrganizationsController {
  constructor(
    private readonly access: OwnerAccessService,
    @Inject(CRM_CLIENT) private readonly crm: CrmClient,
  ) {}

  @Get('organizations')
  @Header('Cache-Control', 'no-store')
  async organizations(@Req() request: Request): Promise<OrganizationChoices> {
    const ids = await this.access.organizationsOf(linkParams(request), clientAddress(request));
    if (ids.length === 0) return { organizations: [] };
    const rows = await this.crm.api4('Contact', 'get', {
      select: ['id', 'display_name', 'organization_name'],
      where: [['id', 'IN', ids]],
    });
    const organizations = rows
      .map((row) => ({
        id: Number(row['id']),
        name: String(row['organization_name'] || row['display_name'] || `Organization ${String(row['id'])}`),
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
    return { organizations };
  }
}
