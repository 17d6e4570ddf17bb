import { Inject, Injectable } from '@nestjs/common';
import { CRM_CLIENT, type CrmClient } from './crm-client';
import { checkRows, malformed } from './crm-rows';

export interface CreatedFile {
  id: number;
  /** The name CiviCRM stored the file under, when it said. */
  fileName: string | null;
  /** The extension's mark that it decoded the base64 content (docs/civicrm-setup.md). */
  contentDecoded: boolean;
}

/** File records: create, delete, and the signed URL lookups of the staff report. */
@Injectable()
export class CrmFilesGateway {
  constructor(@Inject(CRM_CLIENT) private readonly crm: CrmClient) {}

  /** Where the CRM's signed file URLs start (CrmClient.fileBaseUrl). */
  get fileBaseUrl(): string | null {
    return this.crm.fileBaseUrl;
  }

  async createFile(fileName: string, mimeType: string, bytes: Buffer): Promise<CreatedFile> {
    const call = 'File.create';
    const [row] = checkRows(call, await this.crm.createFile({ fileName, mimeType, bytes }), {});
    const id = Number(row?.['id']);
    if (!Number.isSafeInteger(id) || id <= 0) throw malformed(call, 'answer has no file id');
    const storedName = row?.['file_name'];
    return {
      id,
      fileName: typeof storedName === 'string' && storedName !== '' ? storedName : null,
      contentDecoded: row?.['checkin_content_decoded'] === true,
    };
  }

  async deleteFile(id: number): Promise<void> {
    await this.crm.api4('File', 'delete', { where: [['id', '=', id]] });
  }

  /**
   * APIv3 `Attachment.get` for all the ids at once (`return` must be a comma-separated string:
   * an array is a type error in CiviCRM). Signed URL by file id; v3 answers ids as strings.
   */
  async attachmentUrls(fileIds: readonly number[]): Promise<Map<number, string>> {
    const rows = checkRows(
      'Attachment.get',
      await this.crm.api3('Attachment', 'get', { id: { IN: [...fileIds] }, return: 'id,url', sequential: 1 }),
      {},
    );
    return urlsById(rows);
  }

  /** APIv4 `File.get` selecting `url`, which CiviCRM 6.2+ answers with signed URLs (5.81: null). */
  async fileGetUrls(fileIds: readonly number[]): Promise<Map<number, string>> {
    const rows = checkRows(
      'File.get',
      await this.crm.api4('File', 'get', { select: ['id', 'url'], where: [['id', 'IN', [...fileIds]]] }),
      {},
    );
    return urlsById(rows);
  }
}

/** Rows without a usable id or url are left out. */
function urlsById(rows: readonly Record<string, unknown>[]): Map<number, string> {
  const urls = new Map<number, string>();
  for (const row of rows) {
    const id = Number(row['id']);
    const url = row['url'];
    if (Number.isSafeInteger(id) && typeof url === 'string' && url !== '') urls.set(id, url);
  }
  return urls;
}
