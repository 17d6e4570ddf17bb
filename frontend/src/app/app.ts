import {
  afterNextRender,
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  type ElementRef,
  inject,
  Injector,
  viewChild,
} from '@angular/core';
import { NavigationEnd, Router, RouterOutlet } from '@angular/router';
import { filter, map, pairwise } from 'rxjs';

/**
 * The shell of every page. Two focus rules live here because every page shares them: the skip
 * link moves focus into main without touching the address (a fragment link would resolve against
 * `<base href="/">` and drop the personal link's query), and after a move between pages (form to
 * report, say) focus goes to the new page's main region instead of being dropped to the body.
 * A navigation that stays on the same page (the staff page dropping its key from the address)
 * is no move between pages, so the first load keeps the browser's starting focus.
 */
@Component({
  selector: 'app-root',
  imports: [RouterOutlet],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <a class="skip-link" href="#main" (click)="skipToMain($event)">Skip to content</a>
    <main #main id="main" tabindex="-1">
      <router-outlet />
    </main>
  `,
})
export class App {
  private readonly main = viewChild.required<ElementRef<HTMLElement>>('main');
  private readonly injector = inject(Injector);

  constructor() {
    const subscription = inject(Router)
      .events.pipe(
        filter((event) => event instanceof NavigationEnd),
        map((event) => pathOf(event.urlAfterRedirects)),
        // The first page load (no previous path) keeps the browser's own starting focus.
        pairwise(),
        filter(([previous, next]) => previous !== next),
      )
      .subscribe(() => afterNextRender(() => this.focusMain(), { injector: this.injector }));
    inject(DestroyRef).onDestroy(() => subscription.unsubscribe());
  }

  protected skipToMain(event: MouseEvent): void {
    event.preventDefault();
    this.focusMain();
  }

  private focusMain(): void {
    const main = this.main().nativeElement;
    // A page may already have put focus on something inside it (a heading, an error summary).
    if (main.contains(main.ownerDocument.activeElement) && main.ownerDocument.activeElement !== main) return;
    main.focus();
    main.scrollIntoView({ block: 'start' });
  }
}

/** The page of a router URL: its path without query or fragment. */
function pathOf(url: string): string {
  return url.split(/[?#]/, 1)[0] ?? url;
}
