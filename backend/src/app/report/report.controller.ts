import { Controller, Get, Header, Req } from '@nestjs/common';
import type { OwnerLinkParams, ReportPayload } from '@checkin/contract';
import type { Request } from 'express';
import { clientAddress, linkParams } from '../auth/owner-access.guard';
import { OwnerAccessService } from '../auth/owner-access.service';
import { ReportService } from './report.service';

/**
 * `GET /api/report?cid&cs&contactId&orgId`: the organization's check-in history. The checksum is
 * verified and the organization resolved through the 'Primary Contact' relationship before
 * anything is answered; the history's reads travel with that check
 * (OwnerAccessService.authorizeWith).
 */
@Controller('api/report')
export class ReportController {
  constructor(
    private readonly reports: ReportService,
    private readonly access: OwnerAccessService,
  ) {}

  @Get()
  // The history is personal: no shared cache may keep it.
  @Header('Cache-Control', 'no-store')
  report(@Req() request: Request): Promise<ReportPayload> {
    return readReport(this.access, this.reports, linkParams(request), clientAddress(request));
  }
}

/**
 * GET /api/report's read: the link's check with the history's reads alongside. The rendered
 * report reads its data with it too (backend/src/app/pages/page-data.ts).
 */
export function readReport(
  access: OwnerAccessService,
  reports: ReportService,
  link: Partial<OwnerLinkParams>,
  address: string,
): Promise<ReportPayload> {
  return access.authorizeWith(link, address, (owner) => reports.reportFor(owner.orgId));
}
