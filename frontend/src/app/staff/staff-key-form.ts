import {
  afterNextRender,
  ChangeDetectionStrategy,
  Component,
  type ElementRef,
  input,
  output,
  signal,
  viewChild,
} from '@angular/core';
import { FormControl, FormGroup, ReactiveFormsModule, Validators } from '@angular/forms';

/** Asks for the staff key when the page has none, or the API refused the one it had (docs/decisions.md, "Staff page"). */
@Component({
  selector: 'app-staff-key-form',
  imports: [ReactiveFormsModule],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <form class="card" [formGroup]="form" (ngSubmit)="submit()" novalidate>
      <h1>Staff report</h1>
      <p>
        Enter the staff key to open the report for organization <strong>{{ orgId() }}</strong> (its id in the
        CRM). The key is kept for this browser tab only.
      </p>
      @if (rejected()) {
        <p id="staff-key-rejected" class="notice error" role="alert">
          That staff key was not accepted. Check it and try again.
        </p>
      }
      <label for="staff-key">Staff key</label>
      <input
        #keyInput
        id="staff-key"
        type="password"
        formControlName="key"
        autocomplete="current-password"
        required
        [attr.aria-invalid]="showMissing() ? 'true' : null"
        [attr.aria-describedby]="
          showMissing() ? 'staff-key-missing' : rejected() ? 'staff-key-rejected' : null
        "
      />
      @if (showMissing()) {
        <p id="staff-key-missing" class="missing">Enter the staff key.</p>
      }
      <button type="submit">Open the report</button>
    </form>
  `,
  styles: `
    form {
      display: grid;
      gap: var(--space-3);
      max-width: 30rem;
    }
    label {
      font-weight: 600;
    }
    input {
      min-height: 2.75rem;
      padding: var(--space-2) var(--space-3);
      border: 1px solid var(--color-text-muted);
      border-radius: var(--radius);
      background: var(--color-surface);
    }
    .missing {
      margin: 0;
      color: var(--color-danger);
    }
    button {
      justify-self: start;
    }
  `,
})
export class StaffKeyForm {
  readonly rejected = input(false);
  /** The organization the report is for, as the address names it (its name needs the key). */
  readonly orgId = input.required<string>();
  readonly keyEntered = output<string>();

  private readonly keyInput = viewChild.required<ElementRef<HTMLInputElement>>('keyInput');

  constructor() {
    // After a refused key the form is drawn anew: focus goes back to the key, never to the body.
    afterNextRender(() => {
      if (this.rejected()) this.keyInput().nativeElement.focus();
    });
  }

  protected readonly form = new FormGroup({
    key: new FormControl('', { nonNullable: true, validators: [Validators.required] }),
  });

  protected readonly showMissing = signal(false);

  protected submit(): void {
    const key = this.form.controls.key.value.trim();
    this.showMissing.set(!key);
    if (key) this.keyEntered.emit(key);
  }
}
