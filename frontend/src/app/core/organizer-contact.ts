import { HttpClient } from '@angular/common/http';
import { ChangeDetectionStrategy, Component, computed, inject, Injectable, input } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import type { OrganizerContact } from '@checkin/contract';
import { catchError, type Observable, of, shareReplay } from 'rxjs';

const NO_CONTACT: OrganizerContact = { name: null, email: null };

/**
 * The organizer an owner contacts when something goes wrong (GET /api/organizer), read once per
 * page load. It is asked for even when the owner's own link fails, so it needs no link; a
 * failure to read it only leaves the generic wording.
 */
@Injectable({ providedIn: 'root' })
export class OrganizerContactApi {
  private readonly contact$: Observable<OrganizerContact> = inject(HttpClient)
    .get<OrganizerContact>('/api/organizer')
    .pipe(
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
    @let c = contact();
    <p class="organizer-contact">
      {{ lead() }}
      @if (c.name && c.email) {
        contact {{ c.name }} at <a [href]="'mailto:' + c.email">{{ c.email }}</a>{{ ending() }}
      } @else if (c.email) {
        contact your organizer at <a [href]="'mailto:' + c.email">{{ c.email }}</a>{{ ending() }}
      } @else if (c.name) {
        contact {{ c.name }}, your organizer{{ ending() }}
      } @else {
        contact the organizer who sent you your check-in link{{ ending() }}
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
  protected readonly ending = computed(() =>
    this.needsNewLink() ? ' and ask for a new personal link.' : '.',
  );
}
