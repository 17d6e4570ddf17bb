import { Module } from '@nestjs/common';
import { AttachmentUrlService } from './attachment-urls.service';
import { StaffReportController } from './staff-report.controller';
import { StaffReportService } from './staff-report.service';

@Module({
  controllers: [StaffReportController],
  providers: [StaffReportService, AttachmentUrlService],
})
export class StaffReportModule {}
