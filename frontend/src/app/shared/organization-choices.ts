import { HttpClient } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import { type OrganizationChoices, organizationChoicesUrl, type OwnerLinkParams } from '@checkin/contract';
import { map, type Observable } from 'rxjs';
import { ownerLinkQuery } from '../core/link-params';
import { PreloadedData } from '../core/preloaded-data';

/** One co-op to choose: its name, and the same personal link with its orgId. */
export interface ChoiceLink {
  name: string;
  href: string;
}

/**
 * The co-ops a person with several may open (GET /api/organizations), each as a link to the page
 * asked for with the same personal link and that co-op's orgId: every owner page offers the same
 * picker when the link names no co-op. A server-rendered page carries the answer inside
 * (PreloadedData), so the list is in the page as it arrives.
 */
@Injectable({ providedIn: 'root' })
export class OrganizationChoicesApi {
  private readonly http = inject(HttpClient);
  private readonly preloaded = inject(PreloadedData);

  choices(link: OwnerLinkParams, page: '/' | '/report'): Observable<ChoiceLink[]> {
    const answer =
      this.preloaded.take<OrganizationChoices>(organizationChoicesUrl(link)) ??
      this.http.get<OrganizationChoices>('/api/organizations', { params: ownerLinkQuery(link) });
    return answer.pipe(
      map(({ organizations }) =>
        organizations.map((organization) => ({
          name: organization.name,
          href: `${page}?${new URLSearchParams(ownerLinkQuery({ ...link, orgId: String(organization.id) })).toString()}`,
        })),
      ),
    );
  }
}
