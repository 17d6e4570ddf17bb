import type { UploadLimits } from '@checkin/contract';

/**
 * What /api/upload accepts: one global list for every file field (docs/product-rules.md, "Uploads", rules 4 and 5). The form page
 * receives the same policy in FormDataPayload.upload, so the file picker and the server agree.
 */

/** 5 MB, kept below the hosting platform's 6 MB synchronous payload limit (docs/product-rules.md, "Uploads", rules 4 and 5). */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

/**
 * A multipart request is the file plus a few short text parts; one declaring more than this is
 * refused before a byte of it is read.
 */
export const MAX_UPLOAD_REQUEST_BYTES = 10 * 1024 * 1024;

/** docs/decisions.md, "Limits". */
export const MAX_FILE_NAME_LENGTH = 120;

/** What file-type reports for a Compound File Binary (OLE2) container: DOC and XLS are ones. */
const OLE2_CONTAINER_MIME = 'application/x-cfb';

export interface AllowedFileType {
  /** The MIME type a browser declares for the file. */
  mime: string;
  /** Lowercase, without the dot; the first is the one appended when a name lacks it. */
  extensions: readonly [string, ...string[]];
  /** What the leading bytes must be detected as (file-type's answer). */
  detectedAs: string;
}

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const ALLOWED_FILE_TYPES: readonly AllowedFileType[] = [
  { mime: 'application/pdf', extensions: ['pdf'], detectedAs: 'application/pdf' },
  { mime: 'application/msword', extensions: ['doc'], detectedAs: OLE2_CONTAINER_MIME },
  { mime: DOCX_MIME, extensions: ['docx'], detectedAs: DOCX_MIME },
  { mime: 'application/vnd.ms-excel', extensions: ['xls'], detectedAs: OLE2_CONTAINER_MIME },
  { mime: XLSX_MIME, extensions: ['xlsx'], detectedAs: XLSX_MIME },
  { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'], detectedAs: 'image/jpeg' },
  { mime: 'image/png', extensions: ['png'], detectedAs: 'image/png' },
  { mime: 'image/gif', extensions: ['gif'], detectedAs: 'image/gif' },
  { mime: 'image/webp', extensions: ['webp'], detectedAs: 'image/webp' },
];

/** The allowed type a browser's declared MIME type names, ignoring case and parameters. */
export function allowedFileType(declaredMime: string | undefined): AllowedFileType | undefined {
  const essence = declaredMime?.split(';')[0]?.trim().toLowerCase();
  return ALLOWED_FILE_TYPES.find((type) => type.mime === essence);
}

export const UPLOAD_LIMITS: UploadLimits = {
  maxBytes: MAX_UPLOAD_BYTES,
  mimeTypes: ALLOWED_FILE_TYPES.map((type) => type.mime),
  extensions: ALLOWED_FILE_TYPES.flatMap((type) => type.extensions.map((extension) => `.${extension}`)),
};
