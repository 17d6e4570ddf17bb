import { Module } from '@nestjs/common';
import { PreviewLinkController } from './preview-link.controller';
import { PreviewLinkService } from './preview-link.service';

/** Admin routes: preview links for email (docs/decisions.md, "Preview links"). */
@Module({
  controllers: [PreviewLinkController],
  providers: [PreviewLinkService],
})
export class AdminModule {}
