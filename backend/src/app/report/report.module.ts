import { Module } from '@nestjs/common';
import { ReportController } from './report.controller';
import { ReportService } from './report.service';

/** The owner's read-only check-in history (spec, Report route). */
@Module({
  controllers: [ReportController],
  providers: [ReportService],
})
export class ReportModule {}
