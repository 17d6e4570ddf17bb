import { Injectable, Logger } from '@nestjs/common';
import type { OwnerLinkParams, UploadResponse } from '@checkin/contract';
import { type OwnerAccess, OwnerAccessService } from '../auth/owner-access.service';
import { FileReceipts } from '../check-ins/file-receipts';
import { CrmFilesGateway } from '../crm/files.gateway';
import { AppError } from '../errors/app-error';
import { UPLOAD_FIELD_REFS } from '../fields/field-config';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { sanitizeFileName } from './file-name';
import { contentMatchesType } from './file-signature';
import { UploadErrors } from './upload-errors';
import type { UploadForm } from './upload-form';
import { type AllowedFileType, allowedFileType, MAX_UPLOAD_BYTES } from '../check-ins/upload-policy';

/**
 * The upload rules of docs/product-rules.md, "Uploads", in their order: checksum, rate limit, field allowlist, size, MIME
 * allowlist, leading bytes, name, then one CRM file record linked to nothing (the CRM's
 * scheduled job removes files no field ends up using). The first three need only the text parts
 * and run in `admit`, before a byte of the file is kept; the rest in `store`. Nothing reaches
 * the CRM's write API before every check has passed. The answer carries a receipt (docs/decisions.md, "Organization access"):
 * proof, for submit, that this person uploaded this file for this field of this organization.
 * Stub mode needs nothing here: the in-memory CRM answers.
 */
/** What rules 1–3 established: who uploads, for which organization and field. */
export interface AdmittedUpload {
  access: OwnerAccess;
  fieldRef: string;
}

@Injectable()
export class UploadService {
  private readonly logger = new Logger('Upload');

  constructor(
    private readonly files: CrmFilesGateway,
    private readonly ownerAccess: OwnerAccessService,
    private readonly rateLimits: RateLimitService,
    private readonly receipts: FileReceipts,
  ) {}

  /** Upload rules 1–3: checksum, per-contact limit, field allowlist. */
  async admit(fields: ReadonlyMap<string, string>, clientAddress: string): Promise<AdmittedUpload> {
    const access = await this.ownerAccess.authorize(linkParams(fields), clientAddress);
    await this.rateLimits.consumeUpload(access.contactId);
    const fieldRef = fields.get('fieldRef') ?? '';
    if (!UPLOAD_FIELD_REFS.has(fieldRef)) throw UploadErrors.fieldNotAllowed();
    return { access, fieldRef };
  }

  /** Upload rules 4–7, then the file record. */
  async store(form: UploadForm<AdmittedUpload>): Promise<UploadResponse> {
    const { access, fieldRef } = form.admission;
    if (!form.file || form.file.bytes.byteLength === 0) throw UploadErrors.fileMissing();
    const file = form.file;
    if (file.bytes.byteLength > MAX_UPLOAD_BYTES) throw UploadErrors.fileTooLarge();
    const type = allowedFileType(file.declaredMime);
    if (!type) throw UploadErrors.unsupportedType();
    if (!(await contentMatchesType(file.bytes, type))) throw UploadErrors.contentMismatch();

    const fileName = sanitizeFileName(file.clientName, type);
    const stored = await this.createFileRecord(fileName, type, file.bytes);
    return { ...stored, receipt: this.receipts.issue({ ...access, field: fieldRef, fileId: stored.id }) };
  }

  /**
   * The answer names the file as CiviCRM stored it (it turns spaces into `_`). An answer without
   * the extension's `checkin_content_decoded` mark means the CRM stored the base64 text itself, a
   * corrupt file: it is deleted and the upload refused, naming what the CRM lacks.
   */
  private async createFileRecord(
    fileName: string,
    type: AllowedFileType,
    bytes: Buffer,
  ): Promise<Omit<UploadResponse, 'receipt'>> {
    const created = await this.files.createFile(fileName, type.mime, bytes);
    const id = created.id;
    if (!created.contentDecoded) {
      this.logger.error(
        `File.create stored file ${id} without decoding it: the check-in CiviCRM extension is not installed ` +
          '(docs/civicrm-setup.md); the file was deleted and the upload refused',
      );
      await this.files.deleteFile(id).catch(() => undefined);
      throw new AppError(
        502,
        'CRM_EXTENSION_MISSING',
        'Our records system cannot store files yet. Your answers are kept; please tell the organizers.',
      );
    }
    return { id, file_name: created.fileName ?? fileName };
  }
}

function linkParams(fields: ReadonlyMap<string, string>): Partial<OwnerLinkParams> {
  return {
    cid: fields.get('cid'),
    cs: fields.get('cs'),
    contactId: fields.get('contactId'),
    orgId: fields.get('orgId'),
  };
}
