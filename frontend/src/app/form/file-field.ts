import {
  afterNextRender,
  ChangeDetectionStrategy,
  Component,
  computed,
  DestroyRef,
  DOCUMENT,
  ElementRef,
  inject,
  Injector,
  input,
  signal,
  viewChild,
} from '@angular/core';
import type { FileValue } from '@checkin/contract';
import type { Subscription } from 'rxjs';
import { toApiError } from '../core/api-error.interceptor';
import { formatFile } from '../core/value-format';
import type { FileEntry, FormContext } from './check-in-form';
import {
  acceptAttribute,
  describeUploadLimits,
  FileUploads,
  fileProblem,
  type UploadState,
} from './file-uploads';

type FocusTarget = 'picker' | 'cancel' | 'replace' | 'undo';

/**
 * A file field: picking a file uploads it at once with a progress bar, then shows the stored
 * name with Replace and Remove buttons. The control holds the stored {id, file_name} or null; the
 * picker's own file list is emptied as soon as it is read, so it is never a form value.
 */
@Component({
  selector: 'app-file-field',
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './file-field.html',
  styles: `
    :host {
      display: block;
    }
    .picker {
      display: block;
      max-width: 100%;
      min-height: 2.75rem;
      padding: var(--space-2) 0;
    }
    .picker[hidden] {
      display: none;
    }
    /* The browser's own button, drawn like the page's secondary buttons. */
    .picker::file-selector-button {
      min-height: 2.75rem;
      margin-right: var(--space-3);
      padding: var(--space-2) var(--space-4);
      border: 2px solid var(--color-accent);
      border-radius: var(--radius);
      background: var(--color-surface);
      color: var(--color-accent-strong);
      font: inherit;
      font-weight: 600;
      cursor: pointer;
    }
    .picker:focus-visible {
      outline: 3px solid var(--color-focus);
      outline-offset: 2px;
    }
    .help {
      margin: 0 0 var(--space-2);
      color: var(--color-text-muted);
    }
    .removed {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--space-2) var(--space-3);
      margin: 0 0 var(--space-2);
      padding: var(--space-2) var(--space-3);
      border-radius: var(--radius);
      background: var(--color-warning-soft);
    }
    .removed p {
      margin: 0;
      overflow-wrap: anywhere;
    }
    .progress label {
      display: block;
      margin-bottom: var(--space-1);
    }
    .progress-row,
    .file-actions {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--space-3);
    }
    progress {
      flex: 1 1 12rem;
      height: 1rem;
      accent-color: var(--color-accent);
    }
    .stored {
      margin: 0 0 var(--space-2);
      overflow-wrap: anywhere;
    }
    .upload-error {
      margin: var(--space-2) 0 0;
      color: var(--color-danger);
      font-weight: 600;
    }
  `,
})
export class FileField {
  readonly entry = input.required<FileEntry>();
  readonly context = input.required<FormContext>();
  /** The field's help and error ids, from the field around it. */
  readonly describedBy = input<string | null>(null);
  readonly invalid = input(false);
  readonly inputId = input.required<string>();

  private readonly uploads = inject(FileUploads);
  private readonly injector = inject(Injector);
  private readonly document = inject(DOCUMENT);
  private readonly host: ElementRef<HTMLElement> = inject(ElementRef);
  private readonly picker = viewChild.required<ElementRef<HTMLInputElement>>('picker');
  private readonly cancelButton = viewChild<ElementRef<HTMLButtonElement>>('cancelButton');
  private readonly replaceButton = viewChild<ElementRef<HTMLButtonElement>>('replaceButton');
  private readonly undoButton = viewChild<ElementRef<HTMLButtonElement>>('undoButton');
  private running: Subscription | null = null;

  protected readonly uploadState = signal<UploadState>({ status: 'idle' });
  protected readonly accept = computed(() => acceptAttribute(this.context().upload));
  /** The stored file a Remove took away, still undoable until the check-in is sent. */
  protected readonly removed = computed(() => {
    const { value } = this.entry().state();
    const stored = this.entry().control.defaultValue;
    return value === null && stored !== null ? stored : null;
  });

  /** "PDF, JPG or PNG, up to 5 MB": said before a file is picked, not only after a refusal. */
  protected readonly limits = computed(() => describeUploadLimits(this.context().upload));

  protected readonly pickerDescribedBy = computed(() => {
    const ids = [
      this.describedBy(),
      `${this.inputId()}-limits`,
      this.removed() ? `${this.inputId()}-removed` : null,
      this.uploadState().status === 'failed' ? `${this.inputId()}-upload-error` : null,
    ];
    return ids.filter((id) => id !== null).join(' ') || null;
  });

  constructor() {
    inject(DestroyRef).onDestroy(() => this.running?.unsubscribe());
  }

  protected pick(picker: HTMLInputElement): void {
    const file = picker.files?.[0];
    picker.value = '';
    if (!file) return;
    const problem = fileProblem(file, this.context().upload);
    if (problem) {
      this.uploadState.set({ status: 'failed', message: problem });
      return;
    }
    this.start(file);
  }

  protected cancel(): void {
    this.stopRunning();
    this.uploadState.set({ status: 'idle' });
    this.moveFocus('picker');
  }

  protected remove(): void {
    this.setStored(null);
    this.moveFocus('undo');
  }

  protected undoRemove(): void {
    this.setStored(this.entry().control.defaultValue);
    this.moveFocus('replace');
  }

  protected percent(fraction: number): number {
    return Math.round(fraction * 100);
  }

  protected fileName(file: FileValue): string {
    return formatFile(file);
  }

  private start(file: File): void {
    this.stopRunning();
    this.uploadState.set({ status: 'uploading', fileName: file.name, fraction: null });
    this.moveFocus('cancel');
    const { link, contactId, orgId } = this.context();
    this.running = this.uploads
      .upload({ link, contactId, orgId, fieldRef: this.entry().field.name, file })
      .subscribe({
        next: (event) => {
          if (event.kind === 'progress') {
            this.uploadState.set({ status: 'uploading', fileName: file.name, fraction: event.fraction });
          } else {
            this.uploadState.set({ status: 'idle' });
            this.setStored(event.file);
            this.moveFocus('replace');
          }
        },
        error: (error: unknown) => {
          this.uploadState.set({
            status: 'failed',
            message: `${file.name} was not uploaded. ${toApiError(error).message}`,
          });
          this.moveFocus('picker');
        },
      });
  }

  private setStored(file: FileValue | null): void {
    const control = this.entry().control;
    control.setValue(file);
    control.markAsDirty();
    control.markAsTouched();
  }

  private stopRunning(): void {
    this.running?.unsubscribe();
    this.running = null;
  }

  /**
   * Hiding the picker or a button drops the keyboard focus; put it on what replaced it, unless
   * the person has already moved on to another field while the upload ran.
   */
  private moveFocus(target: FocusTarget): void {
    const focusWasHere = (): boolean => {
      const active = this.document.activeElement;
      return active === null || active === this.document.body || this.host.nativeElement.contains(active);
    };
    if (!focusWasHere()) return;
    afterNextRender(
      () => {
        if (!focusWasHere()) return;
        const element = this.focusTarget(target);
        element?.focus();
      },
      { injector: this.injector },
    );
  }

  /** A hidden picker cannot take focus: with a stored file (a cancelled Replace) Replace takes it. */
  private focusTarget(target: FocusTarget): HTMLElement | undefined {
    switch (target) {
      case 'picker':
        return this.entry().control.value === null
          ? this.picker().nativeElement
          : this.replaceButton()?.nativeElement;
      case 'undo':
        return this.undoButton()?.nativeElement ?? this.picker().nativeElement;
      case 'cancel':
        return this.cancelButton()?.nativeElement;
      case 'replace':
        return this.replaceButton()?.nativeElement;
    }
  }
}
