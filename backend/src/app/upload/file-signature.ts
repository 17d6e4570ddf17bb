import type { AllowedFileType } from '../check-ins/upload-policy';

/**
 * What the file's leading bytes say it is, by file-type's signatures; undefined when they match
 * no known format (plain text, garbage, an empty file).
 */
export async function detectContentType(bytes: Uint8Array): Promise<string | undefined> {
  // file-type is ESM-only, so the CommonJS back end loads it with import().
  const { fileTypeFromBuffer } = await import('file-type');
  return (await fileTypeFromBuffer(bytes))?.mime;
}

/**
 * Whether the bytes are what the browser declared (docs/product-rules.md, "Uploads", rule 6). DOC and XLS are OLE2
 * containers, which is all their leading bytes can tell (docs/decisions.md, "Limits").
 */
export async function contentMatchesType(bytes: Uint8Array, type: AllowedFileType): Promise<boolean> {
  return (await detectContentType(bytes)) === type.detectedAs;
}
