import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  DOCUMENT,
  inject,
  LOCALE_ID,
  signal,
} from '@angular/core';
import { takeUntilDestroyed } from '@angular/core/rxjs-interop';
import { Title } from '@angular/platform-browser';
import { RouterLink } from '@angular/router';
import type { ReportPayload } from '@checkin/contract';
import { toApiError } from '../core/api-error.interceptor';
import { ownerLinkQuery, readOwnerLink } from '../core/link-params';
import { FieldEntries } from './field-entries';
import { ReportApi } from './report-api';
import { localCalendarDay } from './report-dates';
import { ReportTimeline } from './report-timeline';
import { buildReportView, fieldAnchorId, type ReportView } from './report-view';
import { buildTimeline, type TimelineView } from './timeline';

type PageState =
  | { kind: 'no-link' }
  | { kind: 'loading' }
  | { kind: 'failed'; message: string; retryable: boolean }
  | { kind: 'ready'; view: ReportView; timeline: TimelineView | null };

/** Failures worth another try: the network, the rate limit, the CRM or the service being down. */
const RETRYABLE_STATUSES = new Set([0, 429, 500, 502, 503, 504]);

/**
 * `/report`: the organization's check-in history, read-only, behind the same personal link as
 * the form (decision 1). Header with the counts, one card per stage section that has answers,
 * and the timeline of the stage sections' dates. Charts load with this page only (lazy route).
 */
@Component({
  selector: 'app-report-page',
  imports: [RouterLink, FieldEntries, ReportTimeline],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    @let current = state();
    @switch (current.kind) {
      @case ('ready') {
        <header class="report-header">
          <p class="eyebrow">Check-in history</p>
          <h1>{{ current.view.orgName }}</h1>
          <p class="stage">
            Current stage: <strong>{{ current.view.stageLabel }}</strong>
          </p>
          <dl class="counts">
            <div>
              <dt>Check-ins</dt>
              <dd class="tabular">{{ current.view.checkinCount }}</dd>
            </div>
            <div>
              <dt>Fields tracked</dt>
              <dd class="tabular">{{ current.view.fieldsTracked }}</dd>
            </div>
            <div>
              <dt>Date span</dt>
              <dd>{{ current.view.dateSpan }}</dd>
            </div>
          </dl>
          <a class="back" routerLink="/" [queryParams]="formQuery">Back to the check-in form</a>
        </header>

        @for (section of current.view.sections; track section.rank) {
          <section class="card" [attr.aria-labelledby]="'stage-' + section.rank">
            <h2 [id]="'stage-' + section.rank">
              <span class="rank">Stage {{ section.rank }}</span> {{ section.title }}
            </h2>
            <ul class="fields">
              @for (field of section.fields; track field.name) {
                <li><app-field-entries [field]="field" /></li>
              }
            </ul>
          </section>
        } @empty {
          <p class="notice">No answers yet. What you submit in the check-in form will show here.</p>
        }

        @if (current.timeline; as timeline) {
          <app-report-timeline [timeline]="timeline" (selectField)="showField($event)" />
        }
      }
      @case ('loading') {
        <h1>Check-in history</h1>
        <p role="status">Loading your co-op’s check-in history…</p>
      }
      @case ('failed') {
        <h1>Check-in history</h1>
        <div class="notice error" role="alert">
          <p>{{ current.message }}</p>
          @if (current.retryable) {
            <button type="button" (click)="load()">Try again</button>
          }
        </div>
      }
      @case ('no-link') {
        <h1>Check-in history</h1>
        <p class="notice">
          This page needs your personal link. Open the link from your check-in email to see your co-op’s
          history.
        </p>
      }
    }
  `,
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
    .fields {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    .notice.error p {
      margin-top: 0;
    }
  `,
})
export class ReportPage {
  protected readonly state = signal<PageState>({ kind: 'loading' });

  private readonly api = inject(ReportApi);
  private readonly title = inject(Title);
  private readonly document = inject(DOCUMENT);
  private readonly locale = inject(LOCALE_ID);
  private readonly destroyRef = inject(DestroyRef);
  private readonly link = readOwnerLink(this.document.location.search);
  protected readonly formQuery = this.link ? ownerLinkQuery(this.link) : {};

  constructor() {
    this.load();
  }

  protected load(): void {
    if (!this.link) return this.state.set({ kind: 'no-link' });
    this.state.set({ kind: 'loading' });
    this.api
      .report(this.link)
      .pipe(takeUntilDestroyed(this.destroyRef))
      .subscribe({
        next: (report) => this.show(report),
        error: (error: unknown) => {
          const apiError = toApiError(error);
          this.state.set({
            kind: 'failed',
            message: apiError.message,
            retryable: RETRYABLE_STATUSES.has(apiError.status),
          });
        },
      });
  }

  /** A timeline marker leads to its field: scrolled into view, focus on its heading. */
  protected showField(fieldName: string): void {
    const heading = this.document.getElementById(fieldAnchorId(fieldName));
    if (!heading) return;
    heading.scrollIntoView({ block: 'center' });
    heading.focus({ preventScroll: true });
  }

  private show(report: ReportPayload): void {
    this.title.setTitle(`${report.orgName} · Check-in history`);
    this.state.set({
      kind: 'ready',
      view: buildReportView(report, { locale: this.locale }),
      timeline: buildTimeline(report, localCalendarDay(new Date()), this.locale),
    });
  }
}
