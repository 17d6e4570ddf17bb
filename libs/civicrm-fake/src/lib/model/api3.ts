import { ACCESS } from './entities';
import type { StoredFiles } from './files';
import type { ModelStore } from './store';
import {
  Api4Error,
  type CallContext,
  CrmFatalError,
  type StoredRecord,
  type V3Envelope,
  type V3Row,
} from './types';
import { fail, isPlainObject, jsonCopy, storedFileName } from './values';

/** APIv3: the one call the service makes (Attachment.get), with the envelope CiviCRM answers in. */
export class ApiV3 {
  constructor(
    private readonly store: ModelStore,
    private readonly files: StoredFiles,
  ) {}

  /**
   * One APIv3 call as civicrm/ajax/rest answers it: an envelope, errors included, except where
   * CiviCRM itself dies (Attachment.get with several ids): that throws Api4Error 500, which the
   * emulator answers as the release's error page.
   */
  api3(entity: string, action: string, params: unknown = {}, context: CallContext = {}): V3Envelope {
    return this.store.asCaller(context, () => this.answer(entity, action, params));
  }

  private answer(entity: string, action: string, params: unknown): V3Envelope {
    try {
      const input = jsonCopy(params);
      if (!isPlainObject(input)) return v3Error('Input variable `params` is not an array');
      if (entity.toLowerCase() !== 'attachment' || action.toLowerCase() !== 'get') {
        return v3Error(`API (${entity}, ${action}) does not exist (join the API team and implement it!)`);
      }
      if (!this.store.hasPermission(ACCESS) || !this.store.hasPermission('access AJAX API')) {
        return v3Error('API permission check failed for Attachment/get call; insufficient permission');
      }
      return jsonCopy(this.attachmentGet(input));
    } catch (error) {
      if (error instanceof Api4Error && !(error instanceof CrmFatalError)) return v3Error(error.message);
      throw error;
    }
  }

  private attachmentGet(params: Record<string, unknown>): V3Envelope {
    const idParam = params['id'];
    if (isPlainObject(idParam) || Array.isArray(idParam)) {
      // Attachment.get hands the id to htmlentities(): a PHP fatal error, an HTTP 500 page.
      throw new CrmFatalError('htmlentities(): Argument #1 ($string) must be of type string, array given');
    }
    const ids = v3Ids(idParam);
    if (ids === undefined)
      return v3Error("Mandatory key(s) missing from params array: 'id' or 'entity_table'");
    const returned = params['return'];
    if (returned !== undefined && typeof returned !== 'string') {
      // PHP's explode() on a non-string: CiviCRM answers with the TypeError's message.
      return v3Error(`explode(): Argument #2 ($string) must be of type string, ${phpType(returned)} given`);
    }
    const rows: V3Row[] = [];
    for (const fileId of ids) {
      const record = this.store.state.tables.File.get(fileId);
      if (!record) continue;
      // The permission check looks for the record the file hangs from.
      const owner = this.files.fileOwner(fileId);
      if (!owner) {
        return v3Error(
          this.store.is614
            ? 'Failed to lookup entity table for custom field.'
            : 'Failed to match record to related entity',
        );
      }
      rows.push(this.attachmentRow(record, owner));
    }
    const flag = params['sequential'];
    const sequential = flag === 1 || flag === '1' || flag === true;
    const values = sequential ? rows : Object.fromEntries(rows.map((row) => [row['id'], row]));
    const single = rows.length === 1 ? { id: Number(rows[0]?.['id']) } : {};
    return { is_error: 0, version: 3, count: rows.length, values, ...single };
  }

  /** Every column, whatever `return` asks for (Attachment.get ignores it). */
  private attachmentRow(record: StoredRecord, owner: { table: string; entityId: number }): V3Row {
    const f = record.fields;
    return {
      id: String(record.id),
      name: storedFileName(record) ?? '',
      mime_type: String(f['mime_type'] ?? ''),
      description: String(f['description'] ?? ''),
      upload_date: String(f['upload_date'] ?? ''),
      // 6.14 reports no entity for a file in a custom field; 5.81 names the value table.
      entity_table: this.store.is614 ? '' : owner.table,
      entity_id: this.store.is614 ? '' : String(owner.entityId),
      icon: fileIcon(String(f['mime_type'] ?? '')),
      created_id: f['created_id'] === null || f['created_id'] === undefined ? '' : String(f['created_id']),
      url: this.files.fileUrl(record.id, owner.entityId),
    };
  }
}

function v3Ids(value: unknown): number[] | undefined {
  const asId = (item: unknown) => {
    const number = typeof item === 'string' && /^\d+$/.test(item) ? Number(item) : item;
    return typeof number === 'number' && Number.isInteger(number)
      ? number
      : fail(`Invalid id: ${String(item)}`);
  };
  if (value === undefined || value === null || value === '') return undefined;
  if (isPlainObject(value)) {
    const list = value['IN'] ?? (value['='] === undefined ? undefined : [value['=']]);
    if (!Array.isArray(list)) return fail('id: only IN and = are supported');
    return list.map(asId);
  }
  if (Array.isArray(value)) return fail('id: use {"IN": [...]} for several ids');
  return [asId(value)];
}

/** CRM_Utils_File::getIconFromMimeType, for the types uploads have. */
function fileIcon(mimeType: string): string {
  if (mimeType === 'application/pdf') return 'fa-file-pdf-o';
  if (mimeType.startsWith('image/')) return 'fa-file-image-o';
  if (mimeType.startsWith('text/')) return 'fa-file-text-o';
  if (/word|opendocument\.text/.test(mimeType)) return 'fa-file-word-o';
  if (/excel|spreadsheet/.test(mimeType)) return 'fa-file-excel-o';
  return 'fa-file-o';
}

function phpType(value: unknown): string {
  if (Array.isArray(value) || isPlainObject(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'boolean') return 'bool';
  return value === null ? 'null' : typeof value;
}

function v3Error(message: string): V3Envelope {
  return { is_error: 1, error_message: message };
}
