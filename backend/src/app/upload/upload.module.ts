import { Module } from '@nestjs/common';
import { FileReceipts } from './file-receipts';
import { UploadGate } from './upload-gate';
import { UploadController } from './upload.controller';
import { UploadService } from './upload.service';

/** POST /api/upload: one file into the CRM, for a file field of the form. */
@Module({
  controllers: [UploadController],
  providers: [UploadService, UploadGate, FileReceipts],
  exports: [FileReceipts],
})
export class UploadModule {}
