import {
  Directive,
  ElementRef,
  inject,
  Injectable,
  input,
  type OnDestroy,
  type OnInit,
  signal,
} from '@angular/core';

/**
 * Which report section is in view, for the chip strip. A section counts as in view while it
 * crosses a reading band under the sticky strip (the top 45% of the window); of those, the
 * first in the document wins. A chip's jump marks its section at once.
 */
@Injectable()
export class SectionSpy implements OnDestroy {
  readonly active = signal<string | null>(null);
  private readonly keys = new Map<Element, string>();
  private readonly inBand = new Set<Element>();
  private readonly observer =
    typeof IntersectionObserver === 'undefined'
      ? null
      : new IntersectionObserver((entries) => this.update(entries), { rootMargin: '-96px 0px -55% 0px' });

  watch(element: Element, key: string): void {
    this.keys.set(element, key);
    this.observer?.observe(element);
  }

  unwatch(element: Element): void {
    this.keys.delete(element);
    this.inBand.delete(element);
    this.observer?.unobserve(element);
  }

  mark(key: string): void {
    this.active.set(key);
  }

  ngOnDestroy(): void {
    this.observer?.disconnect();
  }

  private update(entries: readonly IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      if (entry.isIntersecting) this.inBand.add(entry.target);
      else this.inBand.delete(entry.target);
    }
    const first = [...this.inBand].sort(documentOrder)[0];
    const key = first && this.keys.get(first);
    if (key) this.active.set(key);
  }
}

function documentOrder(a: Element, b: Element): number {
  return a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
}

/** Puts its element under the page's SectionSpy, known by the given section key. */
@Directive({ selector: '[appSectionSpy]' })
export class SectionSpyTarget implements OnInit, OnDestroy {
  readonly appSectionSpy = input.required<string>();
  private readonly spy = inject(SectionSpy);
  private readonly element = inject<ElementRef<Element>>(ElementRef).nativeElement;

  ngOnInit(): void {
    this.spy.watch(this.element, this.appSectionSpy());
  }

  ngOnDestroy(): void {
    this.spy.unwatch(this.element);
  }
}
