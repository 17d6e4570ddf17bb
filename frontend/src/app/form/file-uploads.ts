import { inject, Injectable, signal } from '@angular/core';
import type { UploadLimits } from '@checkin/contract';
import { defer, finalize, type Observable } from 'rxjs';
import { FormApi, type UploadEvent, type UploadRequest } from './form-api';

/**
 * Uploads of one check-in form. A picked file is uploaded at once (docs/product-rules.md, "Uploads");
 * this counts the uploads in flight, because submit is refused while any is.
 */
@Injectable()
export class FileUploads {
  private readonly api = inject(FormApi);
  private readonly active = signal(0);

  /** Uploads started and not yet finished, failed or cancelled. */
  readonly inFlight = this.active.asReadonly();

  /** Counted from subscription until it completes, fails or is unsubscribed (cancel, page left). */
  upload(request: UploadRequest): Observable<UploadEvent> {
    return defer(() => {
      this.active.update((count) => count + 1);
      return this.api.upload(request).pipe(finalize(() => this.active.update((count) => count - 1)));
    });
  }
}

/** One field's upload, as its template shows it. */
export type UploadState =
  | { status: 'idle' }
  | { status: 'uploading'; fileName: string; fraction: number | null }
  | { status: 'failed'; message: string };

/**
 * The server's size and type rules (docs/product-rules.md, "Uploads", rules 4 and 5), checked before any byte is sent
 * so a wrong file is explained at once. The server checks again, and also the file's content.
 */
export function fileProblem(file: File, limits: UploadLimits): string | null {
  if (file.size === 0) return `${file.name} is empty. Choose another file.`;
  if (file.size > limits.maxBytes) {
    return `${file.name} is larger than ${formatMegabytes(limits.maxBytes)}. Choose a smaller file.`;
  }
  if (!limits.mimeTypes.includes(file.type.toLowerCase())) {
    return `${file.name} is not a type of file this form accepts. Choose a ${allowedTypesText(limits)} file.`;
  }
  return null;
}

/** "PDF, DOC, DOCX, JPG or PNG", from the picker's extensions. */
export function allowedTypesText(limits: UploadLimits): string {
  const names = limits.extensions.map((extension) => extension.replace(/^\./, '').toUpperCase());
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : names.join('');
}

/** The file picker's `accept`: extensions and MIME types, so every platform filters alike. */
export function acceptAttribute(limits: UploadLimits): string {
  return [...limits.extensions, ...limits.mimeTypes].join(',');
}

export function formatMegabytes(bytes: number): string {
  const megabytes = bytes / (1024 * 1024);
  return `${Number.isInteger(megabytes) ? megabytes : megabytes.toFixed(1)} MB`;
}

/** "PDF, DOC, DOCX, JPG or PNG, up to 5 MB": the rules said before a file is picked. */
export function describeUploadLimits(limits: UploadLimits): string {
  return `${allowedTypesText(limits)}, up to ${formatMegabytes(limits.maxBytes)}.`;
}
