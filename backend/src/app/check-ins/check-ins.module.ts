import { Module } from '@nestjs/common';
import { FileReceipts } from './file-receipts';

/**
 * The check-in rules that need injecting: the upload receipts /api/upload issues and
 * /api/submit verifies. The upload and form features both import this, not each other.
 */
@Module({
  providers: [FileReceipts],
  exports: [FileReceipts],
})
export class CheckInsModule {}
