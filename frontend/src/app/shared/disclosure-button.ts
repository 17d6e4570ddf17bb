import { ChangeDetectionStrategy, Component, input, model } from '@angular/core';

/** A small text button that shows or hides the element it controls (aria-expanded). */
@Component({
  selector: 'app-disclosure-button',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <button
      type="button"
      [attr.aria-expanded]="expanded()"
      [attr.aria-controls]="controls()"
      (click)="toggle()"
    >
      <span class="marker" aria-hidden="true">{{ expanded() ? '▾' : '▸' }}</span>
      <ng-content />
    </button>
  `,
  styles: `
    button {
      min-height: 1.5rem;
      min-width: 1.5rem;
      margin-top: var(--space-1);
      padding: 0 var(--space-2) 0 var(--space-1);
      gap: var(--space-1);
      font-size: 0.9rem;
      background: transparent;
      border-color: transparent;
      color: var(--color-accent-strong);
    }
    button:hover {
      text-decoration: underline;
    }
    @media (prefers-color-scheme: dark) {
      button {
        color: var(--color-accent);
      }
    }
  `,
})
export class DisclosureButton {
  readonly expanded = model(false);
  readonly controls = input.required<string>();

  protected toggle(): void {
    this.expanded.set(!this.expanded());
  }
}
