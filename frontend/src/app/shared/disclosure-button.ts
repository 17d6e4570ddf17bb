import { ChangeDetectionStrategy, Component, input, model } from '@angular/core';

/**
 * How a disclosure looks where it stands: `heading` fills a section's heading (the form's and
 * the report's stage cards), `secondary` is an outlined button under a value (earlier entries,
 * a figure's numbers), `link` a small text button in a dense list (the staff page).
 */
export type DisclosureLook = 'heading' | 'secondary' | 'link';

/**
 * The one disclosure of the pages: a button with a chevron that shows or hides the element it
 * controls (`aria-expanded`, `aria-controls`). Its label is the projected content, so the
 * button's accessible name is the caller's text; the chevron is hidden from assistive technology.
 */
@Component({
  selector: 'app-disclosure-button',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <button
      type="button"
      [class]="look()"
      [attr.aria-expanded]="expanded()"
      [attr.aria-controls]="controls()"
      (click)="toggle()"
    >
      <span class="chevron" aria-hidden="true"></span>
      <ng-content />
    </button>
  `,
  styles: `
    :host {
      display: block;
    }
    .chevron {
      flex: none;
      display: inline-block;
      width: 0.5em;
      height: 0.5em;
      border-right: 0.15em solid currentColor;
      border-bottom: 0.15em solid currentColor;
      transform: rotate(-45deg);
      transition: transform 0.15s ease-out;
    }
    [aria-expanded='true'] .chevron {
      transform: rotate(45deg);
    }
    @media (prefers-reduced-motion: reduce) {
      .chevron {
        transition: none;
      }
    }
    .heading {
      width: 100%;
      justify-content: flex-start;
      flex-wrap: wrap;
      gap: var(--space-2) var(--space-3);
      padding: var(--space-2);
      margin: calc(-1 * var(--space-2));
      background: transparent;
      border: 0;
      color: inherit;
      font: inherit;
      font-weight: 700;
      text-align: start;
    }
    .secondary {
      min-height: 2.25rem;
      padding: var(--space-1) var(--space-3);
      font-size: 0.875rem;
    }
    .link {
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
    .link:hover {
      text-decoration: underline;
    }
    @media (prefers-color-scheme: dark) {
      .link {
        color: var(--color-accent);
      }
    }
  `,
})
export class DisclosureButton {
  readonly expanded = model(false);
  readonly controls = input.required<string>();
  readonly look = input<DisclosureLook>('link');

  protected toggle(): void {
    this.expanded.set(!this.expanded());
  }
}
