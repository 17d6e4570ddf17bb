import { HttpClient } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import { STAFF_KEY_HEADER, type StaffReportPayload } from '@checkin/contract';
import type { Observable } from 'rxjs';

/** GET /api/staff/report; failures arrive as ApiError (core/api-error.interceptor.ts). */
@Injectable({ providedIn: 'root' })
export class StaffReportApi {
  private readonly http = inject(HttpClient);

  report(orgId: string, staffKey: string): Observable<StaffReportPayload> {
    return this.http.get<StaffReportPayload>('/api/staff/report', {
      params: { orgId },
      headers: { [STAFF_KEY_HEADER]: staffKey },
    });
  }
}
