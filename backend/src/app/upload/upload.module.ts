import { Module } from '@nestjs/common';
import { UploadController } from './upload.controller';
import { UploadService } from './upload.service';

/** POST /api/upload: one file into the CRM, for a file field of the form. */
@Module({
  controllers: [UploadController],
  providers: [UploadService],
})
export class UploadModule {}
