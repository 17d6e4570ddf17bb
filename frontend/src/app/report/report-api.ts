import { HttpClient } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import type { OwnerLinkParams, ReportPayload } from '@checkin/contract';
import type { Observable } from 'rxjs';
import { ownerLinkQuery } from '../core/link-params';

/** GET /api/report with the owner's link; failures arrive as ApiError (core/api-error.interceptor.ts). */
@Injectable({ providedIn: 'root' })
export class ReportApi {
  private readonly http = inject(HttpClient);

  report(link: OwnerLinkParams): Observable<ReportPayload> {
    return this.http.get<ReportPayload>('/api/report', { params: ownerLinkQuery(link) });
  }
}
