import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import type { StaffReportPayload } from '@checkin/contract';
import { StaffKeyGuard } from '../auth/secret-key.guard';
import { Errors } from '../errors/app-error';
import { StaffReportService } from './staff-report.service';

/** Staff report (docs/product-rules.md, "Staff report"; docs/decisions.md, "Staff page"): `X-Staff-Key` checked before anything else. */
@Controller('api/staff')
@UseGuards(StaffKeyGuard)
export class StaffReportController {
  constructor(private readonly staffReport: StaffReportService) {}

  @Get('report')
  report(@Query('orgId') orgId: unknown): Promise<StaffReportPayload> {
    return this.staffReport.report(parseOrgId(orgId));
  }
}

/** orgId is required: a positive whole number (query values may also arrive as lists). */
export function parseOrgId(raw: unknown): number {
  const id = typeof raw === 'string' && /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw Errors.badRequest('Give the organization as orgId, a positive whole number.', ['orgId']);
  }
  return id;
}
