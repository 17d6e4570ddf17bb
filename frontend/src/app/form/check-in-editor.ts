import {
  afterNextRender,
  ChangeDetectionStrategy,
  Component,
  computed,
  DestroyRef,
  DOCUMENT,
  effect,
  type ElementRef,
  inject,
  Injector,
  input,
  linkedSignal,
  output,
  signal,
  viewChild,
} from '@angular/core';
import { SiteValueFormat } from '../core/site-value-format';
import { formatContextOf } from '../core/value-format';
import { takeUntilDestroyed, toObservable } from '@angular/core/rxjs-interop';
import { ReactiveFormsModule } from '@angular/forms';
import type { FormDataPayload, OwnerLinkParams, StageRank, SubmitResponse } from '@checkin/contract';
import { map, switchMap } from 'rxjs';
import { type ApiError, toApiError } from '../core/api-error.interceptor';
import { type ChangeRow, describeChanges } from './answer-changes';
import {
  buildCheckInForm,
  changesOf,
  type CheckInForm,
  controlIdOf,
  draftDiffersFrom,
  draftValuesOf,
  fingerprintOf,
  formContextOf,
  restoreDraftValues,
  sectionOfField,
  submitValuesOf,
} from './check-in-form';
import { describeSavedAt, type Draft, draftKey, DraftStore, formatSavedTime } from './draft-store';
import { DraftOffer } from './draft-offer';
import { ErrorSummary, type ErrorSummaryItem } from './error-summary';
import { errorMessage, SERVER_ERROR_KEY } from './field-validation';
import { FileUploads } from './file-uploads';
import { FormApi } from './form-api';
import { keepsEnterInField } from './enter-in-field';
import { submitFailureMessage } from './form-messages';
import { FormSectionCard } from './form-section';
import { CheckInReview } from './check-in-review';

/** What the receipt shows: the CRM's answer and the changes it recorded. */
export interface CheckInRecorded {
  response: SubmitResponse;
  rows: readonly ChangeRow[];
}

export type EditorStep = 'editing' | 'reviewing';

/** How long "Undo" is offered after a draft is discarded. */
export const DISCARD_UNDO_MS = 10_000;

type DraftStatus = { kind: 'none' } | { kind: 'saved'; savedAt: string } | { kind: 'unavailable' };

/**
 * The check-in form itself: sections by stage, the browser draft (docs/decisions.md, "Drafts"), the error summary
 * and the submit. It is created for one /api/data payload; the page makes a new one for the next.
 */
@Component({
  selector: 'app-check-in-editor',
  imports: [ReactiveFormsModule, DraftOffer, ErrorSummary, FormSectionCard, CheckInReview],
  providers: [FileUploads],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './check-in-editor.html',
  styles: `
    :host {
      display: block;
    }
    .notice {
      margin: 0 0 var(--space-4);
    }
    .submit-row {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--space-3);
    }
    .reason {
      margin: 0;
      font-weight: 600;
    }
    .hint {
      margin: 0;
      color: var(--color-text-muted);
    }
    .draft-notice {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--space-3);
    }
    .draft-notice p {
      margin: 0;
    }
    .draft-status {
      margin: var(--space-3) 0 0;
      color: var(--color-text-muted);
      min-height: 1.5em;
    }
  `,
})
export class CheckInEditor {
  readonly payload = input.required<FormDataPayload>();
  readonly link = input.required<OwnerLinkParams>();
  /** The CRM confirmed the check-in (201); the draft is already cleared. */
  readonly submitted = output<CheckInRecorded>();
  /** The form or its review is showing, for the page's title. */
  readonly stepChange = output<EditorStep>();

  private readonly api = inject(FormApi);
  private readonly siteFormat = inject(SiteValueFormat);
  private readonly drafts = inject(DraftStore);
  private readonly uploads = inject(FileUploads);
  private readonly injector = inject(Injector);
  private readonly document = inject(DOCUMENT);
  private readonly errorSummary = viewChild(ErrorSummary);
  private readonly failureBox = viewChild<ElementRef<HTMLElement>>('failureBox');
  private readonly reviewStep = viewChild(CheckInReview);
  private readonly reviewButton = viewChild.required<ElementRef<HTMLButtonElement>>('reviewButton');
  private readonly draftNoticeBox = viewChild<ElementRef<HTMLElement>>('draftNoticeBox');

  protected readonly form = computed(() => buildCheckInForm(this.payload()));
  protected readonly context = computed(() => formContextOf(this.payload(), this.link()));
  private readonly draftKey = computed(() =>
    draftKey(this.payload().contact.id, this.payload().organization.id),
  );

  /** The stage sections shown open: the current stage at first (docs/decisions.md, "Sections"). */
  protected readonly openSections = linkedSignal<ReadonlySet<StageRank>>(
    () =>
      new Set(
        this.form()
          .sections.filter((section) => section.role === 'current')
          .map((s) => s.rank),
      ),
  );

  /** A draft from an earlier visit worth restoring: it differs from the prefill or was sent unconfirmed. */
  protected readonly draftOffer = linkedSignal<Draft | null>(() => {
    const draft = this.drafts.load(this.draftKey());
    if (!draft) return null;
    return draft.pendingSubmission || draftDiffersFrom(this.form(), draft.values) ? draft : null;
  });

  protected readonly draftNotice = signal<string | null>(null);
  /** A draft discarded moments ago, offered back with Undo for DISCARD_UNDO_MS. */
  protected readonly discarded = signal<Draft | null>(null);
  private discardTimer: ReturnType<typeof setTimeout> | undefined;

  protected readonly step = signal<EditorStep>('editing');
  /** Taken when the review opens, so it shows exactly what Send sends. */
  protected readonly reviewRows = signal<readonly ChangeRow[]>([]);
  private readonly draftStatus = signal<DraftStatus>({ kind: 'none' });
  protected readonly draftStatusText = computed(() => {
    const status = this.draftStatus();
    switch (status.kind) {
      case 'none':
        return '';
      case 'saved':
        return `Draft saved ${formatSavedTime(status.savedAt)}`;
      case 'unavailable':
        return 'This browser did not allow saving a draft: send the check-in before leaving the page.';
    }
  });

  private readonly showErrors = signal(false);
  protected readonly summaryItems = computed<ErrorSummaryItem[]>(() => {
    if (!this.showErrors()) return [];
    return this.form().entries.flatMap((entry) => {
      const errors = entry.state().errors;
      if (!errors) return [];
      const { field } = entry;
      return [
        {
          name: field.name,
          controlId: controlIdOf(field),
          label: field.label,
          message: errorMessage(field, errors, formatContextOf(this.payload().valueFormat)),
        },
      ];
    });
  });

  protected readonly sending = signal(false);
  protected readonly failure = signal<string | null>(null);
  protected readonly canSubmit = computed(() => !this.sending() && this.uploads.inFlight() === 0);
  protected readonly submitReason = computed(() =>
    this.uploads.inFlight() > 0 ? 'Wait for the file upload to finish before sending.' : null,
  );

  constructor() {
    // Amount inputs and captions follow the CRM site's currency and locale (docs/decisions.md, "Currency and number formats").
    effect(() => this.siteFormat.use(this.payload().valueFormat));
    inject(DestroyRef).onDestroy(() => clearTimeout(this.discardTimer));
    // docs/decisions.md, "Drafts": the draft is saved on every change.
    toObservable(this.form)
      .pipe(
        switchMap((form) => form.group.valueChanges.pipe(map(() => form))),
        takeUntilDestroyed(),
      )
      .subscribe((form) => this.saveDraft(form));
  }

  protected setSectionOpen(rank: StageRank, open: boolean): void {
    this.openSections.update((ranks) => {
      const next = new Set(ranks);
      if (open) next.add(rank);
      else next.delete(rank);
      return next;
    });
  }

  /**
   * Answers typed since the page opened are kept over the draft's, and the notice names them, so
   * pressing Restore never silently throws away what was just typed.
   */
  protected restoreDraft(draft: Draft): void {
    const kept = restoreDraftValues(this.form(), draft.values);
    this.draftOffer.set(null);
    const saved = `Your draft saved ${describeSavedAt(draft.savedAt)} is restored.`;
    this.announceDraft(
      kept.length === 0
        ? saved
        : `${saved} Answers you changed since opening the page were kept: ${kept.join(', ')}.`,
    );
  }

  protected discardDraft(): void {
    const draft = this.drafts.load(this.draftKey());
    this.drafts.clear(this.draftKey());
    this.draftOffer.set(null);
    this.draftStatus.set({ kind: 'none' });
    this.discarded.set(draft);
    clearTimeout(this.discardTimer);
    this.discardTimer = setTimeout(() => this.discarded.set(null), DISCARD_UNDO_MS);
    this.announceDraft('The draft is discarded. The form shows what is on record.');
  }

  protected undoDiscard(): void {
    const draft = this.discarded();
    if (!draft) return;
    clearTimeout(this.discardTimer);
    this.discarded.set(null);
    this.drafts.save(this.draftKey(), draft.values);
    this.restoreDraft(draft);
  }

  /** Enter in a one-line field never sends the check-in (it used to send everything at once). */
  protected keepEnterInField(event: Event): void {
    if (keepsEnterInField(event.target)) event.preventDefault();
  }

  protected focusField(item: ErrorSummaryItem): void {
    const section = sectionOfField(this.form(), item.name);
    if (section) this.setSectionOpen(section.rank, true);
    afterNextRender(() => this.focusControl(item), { injector: this.injector });
  }

  /** The form's submit: check the answers, then show what will change. Nothing is sent yet. */
  protected review(): void {
    // docs/product-rules.md, "Uploads", in the browser: no submit while an upload is in flight.
    if (!this.canSubmit()) return;
    const form = this.form();
    this.failure.set(null);
    form.group.markAllAsTouched();
    if (form.group.invalid) {
      this.revealErrors(form);
      return;
    }
    this.reviewRows.set(
      describeChanges(changesOf(form), this.payload().options, formatContextOf(this.payload().valueFormat)),
    );
    this.setStep('reviewing');
    afterNextRender(() => this.reviewStep()?.focus(), { injector: this.injector });
  }

  /** From the review: back to a field's control, or to the button that opened the review. */
  protected backToForm(fieldName: string | null): void {
    this.failure.set(null);
    this.setStep('editing');
    const entry = fieldName ? this.form().entries.find((e) => e.field.name === fieldName) : undefined;
    if (entry) {
      this.focusField({
        name: entry.field.name,
        controlId: controlIdOf(entry.field),
        label: '',
        message: '',
      });
      return;
    }
    afterNextRender(() => this.reviewButton().nativeElement.focus(), { injector: this.injector });
  }

  protected send(): void {
    const form = this.form();
    const values = submitValuesOf(form);
    const rows = this.reviewRows();
    const key = this.draftKey();
    const submissionId = this.drafts.submissionIdFor(key, draftValuesOf(form), fingerprintOf(values));
    const { link, contactId, orgId } = this.context();
    this.failure.set(null);
    this.sending.set(true);
    this.api.submit({ cid: link.cid, cs: link.cs, contactId, orgId, submissionId, values }).subscribe({
      next: (response) => {
        this.drafts.clear(key);
        this.sending.set(false);
        this.submitted.emit({ response, rows });
      },
      error: (error: unknown) => {
        this.sending.set(false);
        this.handleFailure(form, toApiError(error));
      },
    });
  }

  private setStep(step: EditorStep): void {
    this.step.set(step);
    this.stepChange.emit(step);
  }

  /** Field errors the server named go back onto their fields; anything else is said at the button. */
  private handleFailure(form: CheckInForm, error: ApiError): void {
    const named = (error.body.fields ?? []).filter((name) => form.group.contains(name));
    if (error.body.code === 'VALIDATION_FAILED' && named.length > 0) {
      const reasons = error.body.reasons ?? {};
      for (const name of named) {
        form.group.get(name)?.setErrors({ [SERVER_ERROR_KEY]: reasons[name] ?? true });
      }
      this.setStep('editing');
      this.revealErrors(form);
      return;
    }
    this.failure.set(submitFailureMessage(error));
    afterNextRender(
      () =>
        this.step() === 'reviewing'
          ? this.reviewStep()?.focusFailure()
          : this.failureBox()?.nativeElement.focus(),
      { injector: this.injector },
    );
  }

  private revealErrors(form: CheckInForm): void {
    this.showErrors.set(true);
    for (const entry of form.entries) {
      const section = sectionOfField(form, entry.field.name);
      if (entry.control.invalid && section) this.setSectionOpen(section.rank, true);
    }
    afterNextRender(() => this.errorSummary()?.focus(), { injector: this.injector });
  }

  private saveDraft(form: CheckInForm): void {
    const draft = this.drafts.save(this.draftKey(), draftValuesOf(form));
    this.draftStatus.set(draft ? { kind: 'saved', savedAt: draft.savedAt } : { kind: 'unavailable' });
  }

  private announceDraft(message: string): void {
    this.draftNotice.set(message);
    afterNextRender(() => this.draftNoticeBox()?.nativeElement.focus(), { injector: this.injector });
  }

  /** The control itself, or, for a file field showing its stored file, its first button. */
  private focusControl(item: ErrorSummaryItem): void {
    const control = this.document.getElementById(item.controlId);
    if (control && !control.hidden) {
      control.focus();
      return;
    }
    this.document.getElementById(`${item.controlId}-group`)?.querySelector<HTMLElement>('button')?.focus();
  }
}
