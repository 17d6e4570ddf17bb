import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import type { ReportPayload } from '@checkin/contract';
import { Owner, OwnerAccessGuard } from '../auth/owner-access.guard';
import type { OwnerAccess } from '../auth/owner-access.service';
import { ReportService } from './report.service';

/**
 * `GET /api/report?cid&cs&contactId&orgId`: the organization's check-in history. The guard
 * verifies the checksum and resolves the organization through the 'Primary Contact'
 * relationship before anything is read.
 */
@Controller('api/report')
export class ReportController {
  constructor(private readonly reports: ReportService) {}

  @Get()
  @UseGuards(OwnerAccessGuard)
  // The history is personal: no shared cache may keep it.
  @Header('Cache-Control', 'no-store')
  report(@Owner() owner: OwnerAccess): Promise<ReportPayload> {
    return this.reports.reportFor(owner.orgId);
  }
}
