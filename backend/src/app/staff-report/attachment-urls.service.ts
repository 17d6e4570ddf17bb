import { Inject, Injectable, Logger } from '@nestjs/common';
import type { FileUrlLookup } from '@checkin/contract';
import { CRM_CLIENT, type CrmClient } from '../crm/crm-client';
import { CrmError } from '../crm/crm-errors';

interface AttachmentRow {
  id: string | number;
  url?: string;
}

export interface SignedUrls {
  lookup: FileUrlLookup;
  /** Signed URL by file id; empty unless the lookup went `ok`. */
  urls: ReadonlyMap<number, string>;
}

const NO_URLS: ReadonlyMap<number, string> = new Map();

/**
 * Signed file URLs for the staff report: exactly one APIv3 `Attachment.get` for all the ids,
 * whatever their number (spec, Staff report 5). `return` must be a comma-separated string: an
 * array is a type error in CiviCRM. A failed lookup is logged and answered as `failed`, so the
 * report still goes out and the page falls back to file links it can build itself (rule 7).
 */
@Injectable()
export class AttachmentUrlService {
  private readonly logger = new Logger('StaffReport');

  constructor(@Inject(CRM_CLIENT) private readonly crm: CrmClient) {}

  async signedUrls(fileIds: readonly number[]): Promise<SignedUrls> {
    if (fileIds.length === 0) return { lookup: 'skipped', urls: NO_URLS };
    try {
      const rows = await this.crm.api3<AttachmentRow & Record<string, unknown>>('Attachment', 'get', {
        id: { IN: [...fileIds] },
        return: 'id,url',
        sequential: 1,
      });
      return { lookup: 'ok', urls: urlsById(rows) };
    } catch (error) {
      if (!(error instanceof CrmError)) throw error;
      this.logger.warn(
        `Attachment URL lookup for ${fileIds.length} file(s) failed (${error.failure}); ` +
          'answering without signed URLs, file links fall back to CRM addresses',
      );
      return { lookup: 'failed', urls: NO_URLS };
    }
  }
}

/** v3 answers ids as strings; rows without a usable id or url are left out. */
function urlsById(rows: readonly AttachmentRow[]): Map<number, string> {
  const urls = new Map<number, string>();
  for (const row of rows) {
    const id = Number(row.id);
    if (Number.isSafeInteger(id) && typeof row.url === 'string' && row.url !== '') urls.set(id, row.url);
  }
  return urls;
}
