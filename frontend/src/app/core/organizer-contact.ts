import { HttpClient } from '@angular/common/http';
import { ChangeDetectionStrategy, Component, computed, inject, Injectable, input } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { type OrganizerContact, organizerContactWords } from '@checkin/contract';
import { catchError, type Observable, of, shareReplay } from 'rxjs';
import { PageContextStore } from './page-context';

const NO_CONTACT: OrganizerContact = { name: null, email: null };

/**
 * The organizer an owner contacts when something goes wrong: as the service rendered the page
 * with it (PageContextStore), else GET /api/organizer, read once per page load. It is asked for
 * even when the owner's own link fails, so it needs no link; a failure to read it only leaves the
 * generic wording.
 */
@Injectable({ providedIn: 'root' })
export class OrganizerContactApi {
  private readonly handed = inject(PageContextStore).context?.organizer;
  private readonly http = inject(HttpClient);
  private readonly contact$: Observable<OrganizerContact> = this.handed
    ? of(this.handed)
    : this.http.get<OrganizerContact>('/api/organizer').pipe(
        catchError(() => of(NO_CONTACT)),
        shareReplay(1),
      );

  contact(): Observable<OrganizerContact> {
    return this.contact$;
  }
}

/**
 * "Contact Sam Rivera (sam@example.org)": who to ask, with the email as a link. Without settings
 * it still says who to ask, in general words. `needsNewLink` adds how to get a new link.
 */
@Component({
  selector: 'app-organizer-contact',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    @let words = wording();
    <p class="organizer-contact">
      {{ lead() }} {{ words.before }}
      @if (words.email; as email) {
        <!-- No space between the address and the full stop after it. -->
        <a [href]="'mailto:' + email">{{ email }}</a>{{ words.after }}
      }
    </p>
  `,
  styles: `
    .organizer-contact {
      margin: 0;
    }
  `,
})
export class OrganizerContactLine {
  /** The link is wrong or expired: say that the organizer can send a new one. */
  readonly needsNewLink = input(false);
  /** Opening words; "If this keeps happening," for a passing failure. */
  readonly intro = input('For help,');

  protected readonly contact = toSignal(inject(OrganizerContactApi).contact(), { initialValue: NO_CONTACT });
  protected readonly lead = computed(() => this.intro());
  /** The words themselves: @checkin/contract, shared with the pages the service answers alone. */
  protected readonly wording = computed(() => organizerContactWords(this.contact(), this.needsNewLink()));
}
