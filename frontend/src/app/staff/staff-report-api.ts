import { HttpClient } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import { STAFF_KEY_HEADER, type StaffReportPayload, staffReportUrl } from '@checkin/contract';
import type { Observable } from 'rxjs';
import { PreloadedData } from '../core/preloaded-data';

/** GET /api/staff/report; failures arrive as ApiError (core/api-error.interceptor.ts). */
@Injectable({ providedIn: 'root' })
export class StaffReportApi {
  private readonly http = inject(HttpClient);
  private readonly preloaded = inject(PreloadedData);

  report(orgId: string, staffKey: string): Observable<StaffReportPayload> {
    return (
      this.preloaded.take<StaffReportPayload>(staffReportUrl(orgId), staffKey) ??
      this.http.get<StaffReportPayload>('/api/staff/report', {
        params: { orgId },
        headers: { [STAFF_KEY_HEADER]: staffKey },
      })
    );
  }
}
