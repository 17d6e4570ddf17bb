import { ChangeDetectionStrategy, Component, DestroyRef, DOCUMENT, inject, signal } from '@angular/core';
import { takeUntilDestroyed } from '@angular/core/rxjs-interop';
import { Title } from '@angular/platform-browser';
import { RouterLink } from '@angular/router';
import type { OwnerLinkParams, ReportPayload } from '@checkin/contract';
import { toApiError } from '../core/api-error.interceptor';
import { ownerLinkQuery, readOwnerLink } from '../core/link-params';
import { DisclosureButton } from '../shared/disclosure-button';
import { LoadFailureNotice } from '../shared/load-failure-notice';
import { type LoadProblem, loadProblemOf } from '../shared/load-problems';
import { type ChoiceLink, OrganizationChoicesApi } from '../shared/organization-choices';
import { FieldEntries } from './field-entries';
import { ReportApi } from './report-api';
import { localCalendarDay } from '../shared/dates';
import { QuarterlyMatrixTable } from '../shared/quarterly-matrix';
import { HeadlineFigure } from './report-headlines';
import type { StageState } from './report-summary';
import { ReportTimeline } from './report-timeline';
import { buildReportView, fieldAnchorId, type ReportView } from './report-view';
import { SiteValueFormat } from '../core/site-value-format';
import { buildTimeline, type TimelineView } from './timeline';

type PageState =
  | { kind: 'no-link' }
  | { kind: 'loading' }
  | { kind: 'failed'; problem: LoadProblem; choices?: readonly ChoiceLink[] }
  | { kind: 'ready'; view: ReportView; timeline: TimelineView | null };

/** Said after each stage's name: the step bar's colours, in words. */
const STEP_STATE_TEXT: Record<StageState, string> = {
  done: '(done)',
  current: '(current stage)',
  upcoming: '(to come)',
};

/**
 * `/report`: the organization's check-in history, read-only, behind the same personal link as
 * the form (docs/decisions.md, "Personal links"). Header with the counts, one card per stage section that has answers,
 * and the timeline of the stage sections' dates. Charts load with this page only (lazy route).
 */
const REPORT_TITLE = 'Check-in history';

@Component({
  selector: 'app-report-page',
  imports: [
    RouterLink,
    FieldEntries,
    ReportTimeline,
    HeadlineFigure,
    QuarterlyMatrixTable,
    LoadFailureNotice,
    DisclosureButton,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './report-page.html',
  styles: `
    .report-header {
      margin-bottom: var(--space-6);
    }
    .eyebrow {
      margin: 0 0 var(--space-1);
      font-size: 0.875rem;
      font-weight: 600;
      letter-spacing: 0.04em;
      text-transform: uppercase;
      color: var(--color-text-muted);
    }
    .stage {
      margin: 0 0 var(--space-4);
    }
    .counts {
      display: grid;
      grid-template-columns: 1fr 1fr;
      gap: var(--space-3);
      margin: 0 0 var(--space-4);
    }
    /* The date span is the longest: its own row on a phone, the widest column beyond. */
    .counts div:last-child {
      grid-column: 1 / -1;
    }
    @media (min-width: 40rem) {
      .counts {
        grid-template-columns: 1fr 1fr 2fr;
      }
      .counts div:last-child {
        grid-column: auto;
      }
    }
    .counts div {
      padding: var(--space-3);
      border: 1px solid var(--color-border);
      border-radius: var(--radius);
      background: var(--color-surface);
    }
    .counts dt {
      font-size: 0.875rem;
      color: var(--color-text-muted);
    }
    .counts dd {
      margin: 0;
      font-size: 1.25rem;
      font-weight: 700;
    }
    .back {
      display: inline-flex;
      align-items: center;
      min-height: 1.5rem;
    }
    .rank {
      display: block;
      font-size: 0.875rem;
      font-weight: 600;
      color: var(--color-text-muted);
    }
    .stages {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(6.5rem, 1fr));
      gap: var(--space-2);
      list-style: none;
      margin: 0;
      padding: 0;
      counter-reset: stage;
    }
    .stages li {
      display: flex;
      align-items: center;
      gap: var(--space-2);
      padding: var(--space-2);
      border-top: 4px solid var(--color-border);
      font-size: 0.9rem;
      color: var(--color-text-muted);
    }
    .stages li.done {
      border-top-color: var(--color-accent);
      color: var(--color-text);
    }
    .stages li.current {
      border-top-color: var(--color-accent-strong);
      color: var(--color-text);
      font-weight: 700;
      background: var(--color-accent-soft);
    }
    .step-mark {
      flex: none;
      width: 0.75rem;
      height: 0.75rem;
      border: 2px solid currentColor;
      border-radius: 50%;
    }
    .done .step-mark,
    .current .step-mark {
      background: var(--color-accent);
      border-color: var(--color-accent);
    }
    .headlines {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr));
      gap: var(--space-3);
      list-style: none;
      margin: 0;
      padding: 0;
    }
    .stage-card h2 {
      margin: 0;
    }
    .stage-card [id$='-body']:not([hidden]) {
      margin-top: var(--space-3);
    }
    .notice.empty h2 {
      margin-top: 0;
    }
    .fields {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    .notice.error p {
      margin-top: 0;
    }
    .facts {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr));
      gap: var(--space-3);
      margin: 0;
    }
    .facts dt {
      font-size: 0.875rem;
      color: var(--color-text-muted);
    }
    .facts dd {
      margin: 0;
      font-weight: 600;
      overflow-wrap: anywhere;
    }
    .quarter-heading {
      font-size: 1rem;
      margin: var(--space-4) 0 0;
    }
  `,
})
export class ReportPage {
  protected readonly state = signal<PageState>({ kind: 'loading' });
  /** Stage cards the reader has closed; earlier stages start here. */
  protected readonly collapsed = signal<ReadonlySet<number>>(new Set());
  protected readonly stepStateText = STEP_STATE_TEXT;

  private readonly api = inject(ReportApi);
  private readonly choicesApi = inject(OrganizationChoicesApi);
  private readonly title = inject(Title);
  private readonly document = inject(DOCUMENT);
  private readonly siteFormat = inject(SiteValueFormat);
  private readonly destroyRef = inject(DestroyRef);
  private readonly link = readOwnerLink(this.document.location.search);
  protected readonly formQuery = this.link ? ownerLinkQuery(this.link) : {};

  constructor() {
    // The page names itself (no route title, which the router would set after a server render's
    // first view and so over the co-op's name): the co-op's name once it is known.
    this.title.setTitle(REPORT_TITLE);
    this.load();
  }

  protected load(): void {
    const link = this.link;
    if (!link) return this.state.set({ kind: 'no-link' });
    this.state.set({ kind: 'loading' });
    this.api
      .report(link)
      .pipe(takeUntilDestroyed(this.destroyRef))
      .subscribe({
        next: (report) => this.show(report),
        error: (error: unknown) => {
          const problem = loadProblemOf(toApiError(error), 'Your check-in history');
          this.state.set({ kind: 'failed', problem });
          if (problem.chooseOrganization) this.loadChoices(link, problem);
        },
      });
  }

  /** Several co-ops and no orgId: list them, each a link to this report for that co-op. */
  private loadChoices(link: OwnerLinkParams, problem: LoadProblem): void {
    this.choicesApi
      .choices(link, '/report')
      .pipe(takeUntilDestroyed(this.destroyRef))
      .subscribe({
        next: (choices) => this.state.set({ kind: 'failed', problem, choices }),
        // Without the list the page still says which co-op is missing and whom to ask.
        error: () => this.state.set({ kind: 'failed', problem: { ...problem, needsNewLink: true } }),
      });
  }

  protected toggleSection(rank: number): void {
    const next = new Set(this.collapsed());
    if (!next.delete(rank)) next.add(rank);
    this.collapsed.set(next);
  }

  /**
   * A timeline marker leads to its field: its stage card opened, the field scrolled into view
   * and focus on its heading.
   */
  protected showField(fieldName: string): void {
    const current = this.state();
    if (current.kind !== 'ready') return;
    const section = current.view.sections.find((candidate) =>
      candidate.fields.some((field) => field.name === fieldName),
    );
    if (section && this.collapsed().has(section.rank)) {
      const next = new Set(this.collapsed());
      next.delete(section.rank);
      this.collapsed.set(next);
      // The card's body is shown on the next render; the heading can take focus after it.
      requestAnimationFrame(() => this.focusField(fieldName));
      return;
    }
    this.focusField(fieldName);
  }

  private focusField(fieldName: string): void {
    const heading = this.document.getElementById(fieldAnchorId(fieldName));
    if (!heading) return;
    heading.scrollIntoView({ block: 'center' });
    heading.focus({ preventScroll: true });
  }

  private show(report: ReportPayload): void {
    this.title.setTitle(`${report.orgName} · ${REPORT_TITLE}`);
    // Amounts and numbers follow the CRM site's currency and locale (docs/decisions.md, "Currency and number formats").
    this.siteFormat.use(report.valueFormat);
    const format = this.siteFormat.context();
    const view = buildReportView(report, format);
    this.collapsed.set(new Set(view.sections.filter((s) => s.startsCollapsed).map((s) => s.rank)));
    this.state.set({
      kind: 'ready',
      view,
      timeline: buildTimeline(report, localCalendarDay(new Date()), format.locale),
    });
  }
}
