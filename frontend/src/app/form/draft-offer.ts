import { ChangeDetectionStrategy, Component, computed, input, output } from '@angular/core';
import { describeSavedAt } from './draft-store';

/** docs/decisions.md, "Drafts": on return, offer to restore the draft saved in this browser, or to discard it. */
@Component({
  selector: 'app-draft-offer',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section class="notice warning" aria-labelledby="draft-offer-title">
      <h2 id="draft-offer-title">You have an unsent draft</h2>
      <p>
        Answers you entered on this device were saved {{ saved() }} but not sent. Restore them to carry on, or
        discard them to start from what is on record.
      </p>
      <div class="actions">
        <button type="button" (click)="restore.emit()">Restore draft</button>
        <button type="button" class="secondary" (click)="discard.emit()">Discard draft</button>
      </div>
    </section>
  `,
  styles: `
    :host {
      display: block;
      margin-bottom: var(--space-6);
    }
    h2 {
      font-size: 1.15rem;
      margin-bottom: var(--space-2);
    }
    p {
      margin: 0 0 var(--space-3);
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      gap: var(--space-3);
    }
  `,
})
export class DraftOffer {
  /** ISO 8601. */
  readonly savedAt = input.required<string>();
  readonly restore = output();
  readonly discard = output();

  protected readonly saved = computed(() => describeSavedAt(this.savedAt()));
}
