import { Module } from '@nestjs/common';
import { CheckInsModule } from '../check-ins/check-ins.module';
import { UploadGate } from './upload-gate';
import { UploadController } from './upload.controller';
import { UploadService } from './upload.service';

/** POST /api/upload: one file into the CRM, for a file field of the form. */
@Module({
  imports: [CheckInsModule],
  controllers: [UploadController],
  providers: [UploadService, UploadGate],
})
export class UploadModule {}
