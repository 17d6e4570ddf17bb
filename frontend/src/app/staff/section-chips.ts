import {
  afterRenderEffect,
  ChangeDetectionStrategy,
  Component,
  ElementRef,
  inject,
  input,
  output,
} from '@angular/core';

export interface SectionChip {
  key: string;
  label: string;
}

/** The sticky strip of section chips: a chip jumps to its section; the one in view is marked. */
@Component({
  selector: 'app-section-chips',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <nav aria-label="Report sections">
      <ul>
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

  constructor() {
    // On narrow screens the strip scrolls sideways: keep the marked chip in sight.
    afterRenderEffect(() => {
      if (this.active() !== null) this.centerMarkedChip();
    });
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
