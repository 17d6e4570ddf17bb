import { Module } from '@nestjs/common';
import { ReportController } from './report.controller';
import { ReportService } from './report.service';

/** The owner's read-only check-in history (docs/product-rules.md, "Report"). */
@Module({
  controllers: [ReportController],
  providers: [ReportService],
})
export class ReportModule {}
