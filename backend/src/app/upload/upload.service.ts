import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OwnerLinkParams, UploadResponse } from '@checkin/contract';
import { OwnerAccessService } from '../auth/owner-access.service';
import { CRM_CLIENT, type CrmClient } from '../crm/crm-client';
import { CrmError } from '../crm/crm-errors';
import { AppError } from '../errors/app-error';
import { UPLOAD_FIELD_REFS } from '../fields/field-config';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { sanitizeFileName } from './file-name';
import { contentMatchesType } from './file-signature';
import { UploadErrors } from './upload-errors';
import type { ReceivedFile, UploadForm } from './upload-form';
import { type AllowedFileType, allowedFileType, MAX_UPLOAD_BYTES } from './upload-policy';

/**
 * The upload rules of the spec, in its order: checksum, rate limit, field allowlist, size, MIME
 * allowlist, leading bytes, name, then one CRM file record linked to nothing (the CRM's
 * scheduled job removes files no field ends up using). Nothing reaches the CRM's write API
 * before every check has passed. Stub mode needs nothing here: the in-memory CRM answers.
 */
@Injectable()
export class UploadService {
  private readonly logger = new Logger('Upload');

  constructor(
    @Inject(CRM_CLIENT) private readonly crm: CrmClient,
    private readonly ownerAccess: OwnerAccessService,
    private readonly rateLimits: RateLimitService,
  ) {}

  async store(form: UploadForm, clientAddress: string): Promise<UploadResponse> {
    const access = await this.ownerAccess.authorize(linkParams(form.fields), clientAddress);
    await this.rateLimits.consumeUpload(access.contactId);
    const file = fileForAllowedField(form);
    if (file.bytes.byteLength > MAX_UPLOAD_BYTES) throw UploadErrors.fileTooLarge();
    const type = allowedFileType(file.declaredMime);
    if (!type) throw UploadErrors.unsupportedType();
    if (!(await contentMatchesType(file.bytes, type))) throw UploadErrors.contentMismatch();

    const fileName = sanitizeFileName(file.clientName, type);
    return this.createFileRecord(fileName, type, file.bytes);
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
  ): Promise<UploadResponse> {
    const [row] = await this.crm.createFile({ fileName, mimeType: type.mime, bytes });
    const id = Number(row?.['id']);
    if (!Number.isSafeInteger(id) || id <= 0) {
      throw new CrmError('malformed', 'File.create', 'answer has no file id');
    }
    if (row?.['checkin_content_decoded'] !== true) {
      this.logger.error(
        `File.create stored file ${id} without decoding it: the check-in CiviCRM extension is not installed ` +
          '(docs/civicrm-setup.md); the file was deleted and the upload refused',
      );
      await this.crm.api4('File', 'delete', { where: [['id', '=', id]] }).catch(() => undefined);
      throw new AppError(
        502,
        'CRM_EXTENSION_MISSING',
        'Our records system cannot store files yet. Your answers are kept; please tell the organizers.',
      );
    }
    const storedName = row['file_name'];
    return { id, file_name: typeof storedName === 'string' && storedName !== '' ? storedName : fileName };
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

/** Upload rule 3, and a request that carried no file (or an empty one). */
function fileForAllowedField(form: UploadForm): ReceivedFile {
  if (!UPLOAD_FIELD_REFS.has(form.fields.get('fieldRef') ?? '')) throw UploadErrors.fieldNotAllowed();
  if (!form.file || form.file.bytes.byteLength === 0) throw UploadErrors.fileMissing();
  return form.file;
}
