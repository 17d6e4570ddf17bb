import { HttpClient } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import type { OrganizationChoices, OwnerLinkParams } from '@checkin/contract';
import { map, type Observable } from 'rxjs';
import { ownerLinkQuery } from '../core/link-params';

/** One co-op to choose: its name, and the same personal link with its orgId. */
export interface ChoiceLink {
  name: string;
  href: string;
}

/**
 * The co-ops a person with several may open (GET /api/organizations), each as a link to the page
 * asked for with the same personal link and that co-op's orgId: every owner page offers the same
 * picker when the link names no co-op.
 */
@Injectable({ providedIn: 'root' })
export class OrganizationChoicesApi {
  private readonly http = inject(HttpClient);

  choices(link: OwnerLinkParams, page: '/' | '/report'): Observable<ChoiceLink[]> {
    return this.http.get<OrganizationChoices>('/api/organizations', { params: ownerLinkQuery(link) }).pipe(
      map(({ organizations }) =>
        organizations.map((organization) => ({
          name: organization.name,
          href: `${page}?${new URLSearchParams(ownerLinkQuery({ ...link, orgId: String(organization.id) })).toString()}`,
        })),
      ),
    );
  }
}
