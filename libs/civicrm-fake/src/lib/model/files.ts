import { createHash, createHmac } from 'node:crypto';
import type { EntityCatalog } from './catalog';
import { ENTITIES } from './entities';
import type { ModelStore } from './store';
import { DEFAULT_CHECKSUM_TTL_HOURS, type StoredFile } from './types';
import { asArray, base64Url, fileBytes, safeEqual, storedFileName } from './values';

/** Stored files and their signed URLs, as Attachment.get and File joins hand them out. */
export class StoredFiles {
  constructor(
    private readonly store: ModelStore,
    private readonly catalog: EntityCatalog,
  ) {}

  /**
   * The absolute signed address APIv3 Attachment.get answers: 6.14 signs with a JWT
   * (`{"exp":…,"civi.file":"N"}`, HS256); 5.81 with `<sha256>_<time>_<hours>` bound to the
   * record the file hangs from (`eid`).
   */
  fileUrl(fileId: number, entityId?: number | null): string {
    if (this.store.is614) {
      return `${this.store.baseUrl}/civicrm/file?reset=1&id=${fileId}&fcs=${this.fileToken(String(fileId))}`;
    }
    const eid = entityId ?? '';
    return `${this.store.baseUrl}/civicrm/file?reset=1&id=${fileId}&eid=${eid}&fcs=${this.legacyFileHash(fileId, eid)}`;
  }

  /**
   * APIv4's File `url`: on 6.14 a site-relative signed address (no scheme or host, as
   * measured); 5.81 has none for a file on its own, and the absolute 5.81 form for a file
   * reached through an explicit join (it names the row it hangs from).
   */
  api4FileUrl(fileId: number, joinedFrom?: unknown): string | null {
    if (!this.store.is614) return typeof joinedFrom === 'number' ? this.fileUrl(fileId, joinedFrom) : null;
    const basePath = new URL(this.store.baseUrl).pathname.replace(/\/+$/, '');
    return `${basePath}/civicrm/file?reset=1&id=${fileId}&fcs=${this.fileToken(fileId)}`;
  }

  /** Whether `fcs` is a signature this CRM issued for the file and it has not expired. */
  verifyFileSignature(fileId: number, fcs: string, entityId?: string | null): boolean {
    const legacy = /^([0-9a-f]{64})_(\d+)_(\d+)$/.exec(fcs);
    if (legacy) {
      const [, , time = '0', hours = '0'] = legacy;
      const expected = this.legacyFileHash(fileId, entityId ?? '', Number(time), Number(hours));
      return (
        safeEqual(expected, fcs) && this.store.now().getTime() / 1000 <= Number(time) + Number(hours) * 3600
      );
    }
    const parts = fcs.split('.');
    if (parts.length !== 3) return false;
    const [header = '', payload = '', signature = ''] = parts;
    if (!safeEqual(this.hs256(`${header}.${payload}`), signature)) return false;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      const expires = Number(claims['exp']);
      return String(claims['civi.file']) === String(fileId) && this.store.now().getTime() / 1000 <= expires;
    } catch {
      return false;
    }
  }

  /** CRM_Core_BAO_File::generateFileHash on 6.14: valid for checksum_timeout (7 days). */
  private fileToken(fileId: number | string): string {
    const header = base64Url(JSON.stringify({ typ: 'JWT', alg: 'HS256', kid: this.keyId() }));
    const expires = Math.floor(this.store.now().getTime() / 1000) + DEFAULT_CHECKSUM_TTL_HOURS * 3600;
    const payload = base64Url(JSON.stringify({ exp: expires, 'civi.file': fileId }));
    return `${header}.${payload}.${this.hs256(`${header}.${payload}`)}`;
  }

  private legacyFileHash(
    fileId: number,
    entityId: number | string,
    time = Math.floor(this.store.now().getTime() / 1000),
    hours = DEFAULT_CHECKSUM_TTL_HOURS,
  ): string {
    const hash = createHash('sha256')
      .update(`${this.store.state.secret}|${String(entityId)}|${fileId}|${time}|${hours}`)
      .digest('hex');
    return `${hash}_${time}_${hours}`;
  }

  private hs256(input: string): string {
    return createHmac('sha256', this.store.state.secret).update(input).digest('base64url');
  }

  private keyId(): string {
    return createHash('sha1').update(this.store.state.secret).digest('base64url').slice(0, 27);
  }

  getFile(fileId: number): StoredFile | undefined {
    const record = this.store.state.tables.File.get(fileId);
    if (!record) return undefined;
    const bytes = fileBytes(record);
    return {
      id: record.id,
      file_name: storedFileName(record),
      uri: (record.fields['uri'] as string | null | undefined) ?? null,
      mime_type: (record.fields['mime_type'] as string | null | undefined) ?? null,
      upload_date: (record.fields['upload_date'] as string | null | undefined) ?? null,
      size: bytes.byteLength,
      content: bytes,
    };
  }

  /** The custom-field row a file is the value of, if any (what Attachment calls its entity). */
  fileOwner(fileId: number): { table: string; entityId: number } | undefined {
    for (const field of this.store.state.tables.CustomField.values()) {
      if (field.fields['data_type'] !== 'File') continue;
      const group = this.store.state.tables.CustomGroup.get(Number(field.fields['custom_group_id']));
      if (!group) continue;
      for (const def of Object.values(ENTITIES)) {
        if (!def.customExtends?.includes(String(group.fields['extends']))) continue;
        for (const record of this.catalog.records(def)) {
          if (asArray(record.custom[String(field.id)]).some((value) => Number(value) === fileId)) {
            return { table: String(group.fields['table_name'] ?? ''), entityId: record.id };
          }
        }
      }
    }
    return undefined;
  }
}
