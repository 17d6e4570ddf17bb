import {
  afterNextRender,
  afterRenderEffect,
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  ElementRef,
  inject,
  input,
  output,
  signal,
} from '@angular/core';

export interface SectionChip {
  key: string;
  label: string;
}

/** The sticky strip of section chips: a chip jumps to its section; the one in view is marked. */
@Component({
  selector: 'app-section-chips',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { '[class.more-before]': 'moreBefore()', '[class.more-after]': 'moreAfter()' },
  template: `
    <nav aria-label="Report sections">
      <ul (scroll)="measure()">
        @for (chip of chips(); track chip.key) {
          <li>
            <button
              type="button"
              [attr.aria-current]="chip.key === active() ? 'true' : null"
              (click)="jump.emit(chip.key)"
            >
              {{ chip.label }}
            </button>
          </li>
        }
      </ul>
    </nav>
  `,
  styles: `
    :host {
      display: block;
      position: sticky;
      top: 0;
      z-index: 5;
      margin: 0 calc(-1 * var(--space-4)) var(--space-4);
      padding: var(--space-2) var(--space-4);
      background: var(--color-bg);
      border-bottom: 1px solid var(--color-border);
    }
    ul {
      display: flex;
      gap: var(--space-2);
      margin: 0;
      padding: 2px;
      list-style: none;
      overflow-x: auto;
      scrollbar-width: thin;
    }
    /*
     * A strip cut off on a phone says that it scrolls: the edge with more chips beyond it fades
     * out, over the chips themselves, and the fade goes once that end is reached.
     */
    :host::before,
    :host::after {
      content: '';
      position: absolute;
      top: 0;
      bottom: 0;
      width: 3rem;
      pointer-events: none;
      opacity: 0;
      transition: opacity 0.15s;
    }
    :host::before {
      left: 0;
      background: linear-gradient(to right, var(--color-bg) 25%, transparent);
    }
    :host::after {
      right: 0;
      background: linear-gradient(to left, var(--color-bg) 25%, transparent);
    }
    :host(.more-before)::before,
    :host(.more-after)::after {
      opacity: 1;
    }
    button {
      min-height: 2.25rem;
      padding: var(--space-1) var(--space-3);
      border-radius: 999px;
      border-color: var(--color-border);
      background: var(--color-surface);
      color: var(--color-text);
      font-weight: 500;
      white-space: nowrap;
    }
    button[aria-current='true'] {
      border-color: var(--color-accent);
      background: var(--color-accent);
      color: var(--color-accent-contrast);
      font-weight: 700;
    }
  `,
})
export class SectionChips {
  readonly chips = input.required<readonly SectionChip[]>();
  readonly active = input<string | null>(null);
  readonly jump = output<string>();

  private readonly host = inject<ElementRef<HTMLElement>>(ElementRef).nativeElement;
  protected readonly moreBefore = signal(false);
  protected readonly moreAfter = signal(false);

  constructor() {
    const destroyRef = inject(DestroyRef);
    afterNextRender(() => {
      this.measure();
      const list = this.host.querySelector('ul');
      if (!list || typeof ResizeObserver === 'undefined') return;
      const observer = new ResizeObserver(() => this.measure());
      observer.observe(list);
      destroyRef.onDestroy(() => observer.disconnect());
    });
    // On narrow screens the strip scrolls sideways: keep the marked chip in sight.
    afterRenderEffect(() => {
      if (this.active() !== null) this.centerMarkedChip();
    });
  }

  /** Which ends of the strip have chips scrolled out of sight. */
  protected measure(): void {
    const list = this.host.querySelector('ul');
    if (!list) return;
    const hidden = list.scrollWidth - list.clientWidth;
    this.moreBefore.set(hidden > 1 && list.scrollLeft > 1);
    this.moreAfter.set(hidden > 1 && list.scrollLeft < hidden - 1);
  }

  private centerMarkedChip(): void {
    const list = this.host.querySelector('ul');
    const chip = this.host.querySelector('[aria-current="true"]');
    if (!list || !chip) return;
    const listBox = list.getBoundingClientRect();
    const chipBox = chip.getBoundingClientRect();
    list.scrollLeft += chipBox.left - listBox.left - (listBox.width - chipBox.width) / 2;
  }
}
