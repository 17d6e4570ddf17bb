import { Controller, Get, Header, Req } from '@nestjs/common';
import type { OrganizationChoices } from '@checkin/contract';
import type { Request } from 'express';
import { clientAddress, linkParams } from '../auth/owner-access.guard';
import { OrganizationChoicesService } from './organization-choices.service';

/**
 * GET /api/organizations?cid&cs: for a person tied to several co-ops who opened a link without
 * orgId (ORG_REQUIRED), the co-ops to choose from, by name. Only for a valid link, under the same
 * checksum rules as every owner route; one more round trip for the names.
 */
@Controller('api')
export class OrganizationsController {
  constructor(private readonly choices: OrganizationChoicesService) {}

  @Get('organizations')
  @Header('Cache-Control', 'no-store')
  organizations(@Req() request: Request): Promise<OrganizationChoices> {
    return this.choices.choicesFor(linkParams(request), clientAddress(request));
  }
}
