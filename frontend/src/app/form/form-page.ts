import {
  afterNextRender,
  ChangeDetectionStrategy,
  Component,
  computed,
  DestroyRef,
  effect,
  DOCUMENT,
  type ElementRef,
  inject,
  Injector,
  signal,
  viewChild,
} from '@angular/core';
import { takeUntilDestroyed } from '@angular/core/rxjs-interop';
import { Title } from '@angular/platform-browser';
import type { FormDataPayload, OwnerLinkParams } from '@checkin/contract';
import { toApiError } from '../core/api-error.interceptor';
import { readOwnerLink } from '../core/link-params';
import { CheckInConfirmation } from './check-in-confirmation';
import { OrganizerContactLine } from '../core/organizer-contact';
import { CheckInEditor, type CheckInRecorded, type EditorStep } from './check-in-editor';
import { FormApi } from './form-api';
import { LoadFailureNotice } from '../shared/load-failure-notice';
import { type LoadProblem, loadProblemOf } from '../shared/load-problems';
import { type ChoiceLink, OrganizationChoicesApi } from '../shared/organization-choices';

export type PageState =
  | { kind: 'loading' }
  | { kind: 'failed'; problem: LoadProblem; choices?: readonly ChoiceLink[] }
  | { kind: 'ready'; payload: FormDataPayload }
  | { kind: 'submitted'; payload: FormDataPayload; recorded: CheckInRecorded };

const APP_NAME = 'Co-op check-in';
const INCOMPLETE_LINK = 'This link is incomplete';

/** The tab's title follows the page's state and names the co-op once it is known (GOV.UK style). */
export function formPageTitle(state: PageState | null, step: EditorStep): string {
  if (state === null) return `Problem: ${INCOMPLETE_LINK} – ${APP_NAME}`;
  switch (state.kind) {
    case 'loading':
      return APP_NAME;
    case 'failed':
      return state.problem.chooseOrganization
        ? `Choose your co-op – ${APP_NAME}`
        : `Problem: ${state.problem.title} – ${APP_NAME}`;
    case 'ready': {
      const name = state.payload.organization.name;
      return step === 'reviewing' ? `Check your answers – ${name} – ${APP_NAME}` : `${name} – ${APP_NAME}`;
    }
    case 'submitted':
      return `Check-in recorded – ${state.payload.organization.name} – ${APP_NAME}`;
  }
}

/**
 * `/`: the owner's check-in. Reads the personal link (docs/decisions.md, "Personal links"), loads /api/data, and shows
 * the form, a clear problem, or the confirmation after the CRM recorded the check-in.
 */
@Component({
  selector: 'app-form-page',
  imports: [CheckInEditor, CheckInConfirmation, LoadFailureNotice, OrganizerContactLine],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './form-page.html',
  styles: `
    h1:focus {
      outline: none;
    }
    .organization {
      display: block;
      font-size: 1.1rem;
      font-weight: 600;
      color: var(--color-text-muted);
    }
    .intro {
      margin: 0 0 var(--space-4);
    }
    .notice h2 {
      font-size: 1.15rem;
      margin-bottom: var(--space-2);
    }
    .notice p {
      margin: 0 0 var(--space-3);
    }
    .notice p:last-child {
      margin-bottom: 0;
    }
  `,
})
export class FormPage {
  private readonly api = inject(FormApi);
  private readonly choicesApi = inject(OrganizationChoicesApi);
  private readonly destroyRef = inject(DestroyRef);
  private readonly injector = inject(Injector);
  private readonly confirmation = viewChild(CheckInConfirmation);
  private readonly heading = viewChild.required<ElementRef<HTMLElement>>('heading');

  protected readonly link = readOwnerLink(inject(DOCUMENT).location.search);
  protected readonly state = signal<PageState>({ kind: 'loading' });
  protected readonly step = signal<EditorStep>('editing');
  protected readonly organizationName = computed(() => {
    const state = this.state();
    return state.kind === 'ready' || state.kind === 'submitted' ? state.payload.organization.name : null;
  });

  constructor() {
    const title = inject(Title);
    effect(() => title.setTitle(formPageTitle(this.link ? this.state() : null, this.step())));
    this.load();
  }

  /** Asked for by a button that the new state removes: the focus goes to the page's heading. */
  protected reload(): void {
    this.load();
    afterNextRender(() => this.heading().nativeElement.focus(), { injector: this.injector });
  }

  private load(): void {
    const link = this.link;
    if (!link) return;
    this.step.set('editing');
    this.state.set({ kind: 'loading' });
    this.api
      .loadData(link)
      .pipe(takeUntilDestroyed(this.destroyRef))
      .subscribe({
        next: (payload) => this.state.set({ kind: 'ready', payload }),
        error: (error: unknown) => {
          const problem = loadProblemOf(toApiError(error));
          this.state.set({ kind: 'failed', problem });
          if (problem.chooseOrganization) this.loadChoices(link, problem);
        },
      });
  }

  /** Several co-ops and no orgId: list them, each a link to this same form for that co-op. */
  private loadChoices(link: OwnerLinkParams, problem: LoadProblem): void {
    this.choicesApi
      .choices(link, '/')
      .pipe(takeUntilDestroyed(this.destroyRef))
      .subscribe({
        next: (choices) => this.state.set({ kind: 'failed', problem, choices }),
        // Without the list the page still says which co-op is missing and whom to ask.
        error: () => this.state.set({ kind: 'failed', problem: { ...problem, needsNewLink: true } }),
      });
  }

  protected showConfirmation(payload: FormDataPayload, recorded: CheckInRecorded): void {
    this.state.set({ kind: 'submitted', payload, recorded });
    afterNextRender(() => this.confirmation()?.focus(), { injector: this.injector });
  }
}
