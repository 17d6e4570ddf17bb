import { HttpClient, type HttpEvent, HttpEventType } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import {
  type FileValue,
  type FormDataPayload,
  isFileValue,
  ownerDataUrl,
  type OwnerLinkParams,
  type SubmitRequest,
  type SubmitResponse,
  type UploadResponse,
} from '@checkin/contract';
import { filter, map, type Observable } from 'rxjs';
import { toApiError } from '../core/api-error.interceptor';
import { ownerLinkQuery } from '../core/link-params';
import { PreloadedData } from '../core/preloaded-data';

/**
 * The owner form's calls: GET /api/data, POST /api/submit and POST /api/upload. Failures arrive
 * as ApiError (core/api-error.interceptor.ts).
 */

export interface UploadRequest {
  link: OwnerLinkParams;
  contactId: string;
  orgId: string;
  /** The file field's form-side name (the server's allowlist key). */
  fieldRef: string;
  file: File;
}

export type UploadEvent =
  /** fraction 0..1, or null while the size of the upload is not known yet. */
  { kind: 'progress'; fraction: number | null } | { kind: 'done'; file: FileValue };

@Injectable({ providedIn: 'root' })
export class FormApi {
  private readonly http = inject(HttpClient);
  private readonly preloaded = inject(PreloadedData);

  loadData(link: OwnerLinkParams): Observable<FormDataPayload> {
    return (
      this.preloaded.take<FormDataPayload>(ownerDataUrl('/api/data', link)) ??
      this.http.get<FormDataPayload>('/api/data', { params: ownerLinkQuery(link) })
    );
  }

  submit(request: SubmitRequest): Observable<SubmitResponse> {
    return this.http.post<SubmitResponse>('/api/submit', request);
  }

  upload(request: UploadRequest): Observable<UploadEvent> {
    return this.http
      .post<UploadResponse>('/api/upload', uploadBody(request), { reportProgress: true, observe: 'events' })
      .pipe(
        map(toUploadEvent),
        filter((event) => event !== null),
      );
  }
}

/** The text parts come before the file, so the server checks them before reading any file bytes. */
function uploadBody({ link, contactId, orgId, fieldRef, file }: UploadRequest): FormData {
  const body = new FormData();
  body.append('cid', link.cid);
  body.append('cs', link.cs);
  body.append('contactId', contactId);
  body.append('orgId', orgId);
  body.append('fieldRef', fieldRef);
  body.append('file', file, file.name);
  return body;
}

function toUploadEvent(event: HttpEvent<UploadResponse>): UploadEvent | null {
  switch (event.type) {
    case HttpEventType.UploadProgress:
      return { kind: 'progress', fraction: event.total ? Math.min(event.loaded / event.total, 1) : null };
    case HttpEventType.Response:
      if (!isFileValue(event.body)) throw toApiError(event.body);
      return { kind: 'done', file: event.body };
    case HttpEventType.Sent:
    case HttpEventType.ResponseHeader:
    case HttpEventType.DownloadProgress:
    case HttpEventType.User:
      return null;
  }
}
