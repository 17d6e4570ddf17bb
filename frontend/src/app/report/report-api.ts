import { HttpClient } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import { ownerDataUrl, type OwnerLinkParams, type ReportPayload } from '@checkin/contract';
import type { Observable } from 'rxjs';
import { ownerLinkQuery } from '../core/link-params';
import { PreloadedData } from '../core/preloaded-data';

/** GET /api/report with the owner's link; failures arrive as ApiError (core/api-error.interceptor.ts). */
@Injectable({ providedIn: 'root' })
export class ReportApi {
  private readonly http = inject(HttpClient);
  private readonly preloaded = inject(PreloadedData);

  report(link: OwnerLinkParams): Observable<ReportPayload> {
    return (
      this.preloaded.take<ReportPayload>(ownerDataUrl('/api/report', link)) ??
      this.http.get<ReportPayload>('/api/report', { params: ownerLinkQuery(link) })
    );
  }
}
