import { Inject, Injectable, Logger } from '@nestjs/common';
import type { FileUrlLookup } from '@checkin/contract';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CrmFilesGateway } from '../crm/files.gateway';
import { CrmError } from '../crm/crm-errors';
import { signedFileLinks } from './file-link-signature';

export interface SignedUrls {
  lookup: FileUrlLookup;
  /** Signed URL by file id; empty unless the lookup went `ok`. */
  urls: ReadonlyMap<number, string>;
}

const NO_URLS: ReadonlyMap<number, string> = new Map();

/**
 * Signed file URLs for the staff report. With FILE_LINK_KEY (the extension holds the same key)
 * the service signs links to the extension's route itself, with no CRM call: they work on every
 * version, and are scoped by the extension to the files of check-ins and organizations the staff
 * member may see. Without it: first exactly one APIv3 `Attachment.get` for all the
 * ids, whatever their number (`return` must be a comma-separated string: an array is a type
 * error in CiviCRM). Stock CiviCRM answers that id list with HTTP 500, so a failed lookup is
 * logged and followed by one APIv4 `File.get` selecting `url`, which 6.2+ answers with signed
 * URLs (5.81 answers null). Whatever is still missing, the page links through the extension's
 * file route or the bare file address (README, "Decisions where the product's rules are silent", Staff file links).
 *
 * A site that answered the APIv3 lookup with an error will answer it so again: for
 * CRM_ATTACHMENT_LOOKUP_PAUSE_SECONDS the lookup goes straight to File.get, said once in the log
 * (docs/decisions.md, "Attachment lookup").
 */
@Injectable()
export class AttachmentUrlService {
  private readonly logger = new Logger('StaffReport');

  private readonly pauseMs: number;
  /** Until when (epoch ms) the APIv3 lookup is not asked; 0 while the site has not refused it. */
  private v3PausedUntil = 0;
  private pauseLogged = false;

  constructor(
    private readonly files: CrmFilesGateway,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.pauseMs = config.attachmentLookupPauseMs;
  }

  async signedUrls(fileIds: readonly number[]): Promise<SignedUrls> {
    if (fileIds.length === 0) return { lookup: 'skipped', urls: NO_URLS };
    const crm = this.config.crm;
    if (crm?.fileLinkKey) {
      const urls = signedFileLinks(fileIds, {
        baseUrl: crm.baseUrl,
        route: crm.fileRoute,
        key: crm.fileLinkKey,
        nowSeconds: Math.floor(Date.now() / 1000),
      });
      return { lookup: 'ok', urls };
    }
    if (Date.now() < this.v3PausedUntil) return this.fileGetUrls(fileIds);
    try {
      return { lookup: 'ok', urls: await this.files.attachmentUrls(fileIds) };
    } catch (error) {
      if (!(error instanceof CrmError)) throw error;
      if (error.isTimeout) {
        // A CRM that slow would keep the page waiting a second time: links use the file route.
        this.logger.warn(`Attachment URL lookup for ${fileIds.length} file(s) timed out; no signed URLs`);
        return { lookup: 'failed', urls: NO_URLS };
      }
      this.logger.warn(
        `Attachment URL lookup for ${fileIds.length} file(s) failed (${error.failure}); asking File.get`,
      );
      this.pauseV3Lookup(error);
    }
    return this.fileGetUrls(fileIds);
  }

  /** Only an answer from the site itself says it will refuse again; an outage says nothing. */
  private pauseV3Lookup(error: CrmError): void {
    if (this.pauseMs <= 0 || error.failure === 'unreachable') return;
    this.v3PausedUntil = Date.now() + this.pauseMs;
    if (this.pauseLogged) return;
    this.pauseLogged = true;
    this.logger.warn(
      `APIv3 Attachment.get refused by this CRM: staff file links use File.get for the next ${Math.round(this.pauseMs / 1000)} s at a time (CRM_ATTACHMENT_LOOKUP_PAUSE_SECONDS)`,
    );
  }

  private async fileGetUrls(fileIds: readonly number[]): Promise<SignedUrls> {
    try {
      const urls = await this.files.fileGetUrls(fileIds);
      if (urls.size > 0) return { lookup: 'file-get', urls };
      this.logger.warn('File.get answered no file URLs; file links fall back to the file route');
    } catch (error) {
      if (!(error instanceof CrmError)) throw error;
      this.logger.warn(
        `File.get URL lookup failed (${error.failure}); file links fall back to the file route`,
      );
    }
    return { lookup: 'failed', urls: NO_URLS };
  }
}
