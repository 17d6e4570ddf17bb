import { NgTemplateOutlet } from '@angular/common';
import {
  ChangeDetectionStrategy,
  Component,
  computed,
  DestroyRef,
  DOCUMENT,
  effect,
  inject,
  input,
  signal,
  untracked,
} from '@angular/core';
import { takeUntilDestroyed } from '@angular/core/rxjs-interop';
import { Title } from '@angular/platform-browser';
import { ActivatedRoute, Router } from '@angular/router';
import type { StaffReportPayload } from '@checkin/contract';
import type { Subscription } from 'rxjs';
import { toApiError } from '../core/api-error.interceptor';
import { formatDate } from '../core/value-format';
import type { FileLinkContext } from './file-link';
import { type SectionChip, SectionChips } from './section-chips';
import { SectionSpy, SectionSpyTarget } from './section-spy';
import { StaffKeyForm } from './staff-key-form';
import { StaffKeyStore } from './staff-key-store';
import { StaffReportApi } from './staff-report-api';
import { StaffSectionCard } from './staff-section';
import { StaffSubmissions } from './staff-submissions';
import { SiteValueFormat } from '../core/site-value-format';

type StaffView =
  | { kind: 'no-org' }
  | { kind: 'ask-key'; rejected: boolean }
  | { kind: 'loading' }
  | { kind: 'failed'; message: string; canRetry: boolean }
  | { kind: 'ready'; report: StaffReportPayload };

const SUBMISSIONS_KEY = 'submissions';

/**
 * The staff page, `/staff?orgId=O&key=K` (docs/decisions.md, "Staff page"). A key in the address is moved to session
 * storage and taken out of the address before anything is fetched; it then travels only as the
 * X-Staff-Key header. Without a key, or when the API refuses it, the page asks for one.
 */
@Component({
  selector: 'app-staff-page',
  imports: [
    NgTemplateOutlet,
    SectionChips,
    SectionSpyTarget,
    StaffKeyForm,
    StaffSectionCard,
    StaffSubmissions,
  ],
  providers: [SectionSpy],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './staff-page.html',
  styles: `
    .eyebrow {
      margin: 0;
      color: var(--color-text-muted);
      font-weight: 600;
      text-transform: uppercase;
      letter-spacing: 0.05em;
      font-size: 0.85rem;
    }
    .facts {
      display: flex;
      flex-wrap: wrap;
      gap: var(--space-2) var(--space-6);
      margin: 0 0 var(--space-4);
    }
    .facts dt {
      font-size: 0.85rem;
      color: var(--color-text-muted);
    }
    .facts dd {
      margin: 0;
      font-weight: 600;
    }
    .notice {
      margin-bottom: var(--space-4);
    }
  `,
})
export class StaffPage {
  /** Bound from the query string (router component input binding). */
  readonly orgId = input<string>();
  readonly key = input<string>();

  protected readonly spy = inject(SectionSpy);
  protected readonly submissionsKey = SUBMISSIONS_KEY;
  protected readonly view = signal<StaffView>({ kind: 'loading' });

  private readonly api = inject(StaffReportApi);
  private readonly siteFormat = inject(SiteValueFormat);
  private readonly keyStore = inject(StaffKeyStore);
  private readonly router = inject(Router);
  private readonly route = inject(ActivatedRoute);
  private readonly title = inject(Title);
  private readonly document = inject(DOCUMENT);
  private readonly destroyRef = inject(DestroyRef);
  private request?: Subscription;

  private readonly report = computed(() => {
    const current = this.view();
    return current.kind === 'ready' ? current.report : null;
  });
  protected readonly chips = computed<SectionChip[]>(() => [
    ...(this.report()?.sections ?? []).map((section) => ({
      key: section.key,
      label: section.rank ? `${section.rank} · ${section.title}` : section.title,
    })),
    { key: SUBMISSIONS_KEY, label: 'Submissions' },
  ]);
  protected readonly fileLinks = computed<FileLinkContext>(() => ({
    crmBaseUrl: this.report()?.crmBaseUrl ?? null,
    fileRouteTemplate: this.report()?.fileRouteTemplate ?? null,
  }));
  protected readonly latestCheckin = computed(() => {
    const newest = this.report()?.submissions[0];
    return newest ? formatDate(newest.date) : 'None yet';
  });

  constructor() {
    effect(() => {
      const orgId = this.orgId();
      const keyInAddress = this.key();
      // Taking the key out of the address changes the inputs, which runs this again to load.
      untracked(() => (keyInAddress ? this.adoptKey(keyInAddress) : this.load(orgId)));
    });
  }

  protected headingId(sectionKey: string): string {
    return `staff-${sectionKey}`;
  }

  protected useKey(key: string): void {
    this.keyStore.save(key);
    this.load(this.orgId());
  }

  protected retry(): void {
    this.load(this.orgId());
  }

  /** Scrolls the section's heading under the chip strip and moves focus to it. */
  protected jumpTo(sectionKey: string): void {
    const heading = this.document.getElementById(this.headingId(sectionKey));
    if (!heading) return;
    heading.scrollIntoView({ block: 'start' });
    heading.focus({ preventScroll: true });
    this.spy.mark(sectionKey);
  }

  private adoptKey(key: string): void {
    this.keyStore.save(key);
    const reload = () => this.load(this.orgId());
    void this.router
      .navigate([], {
        relativeTo: this.route,
        queryParams: { key: null },
        queryParamsHandling: 'merge',
        replaceUrl: true,
      })
      .then((navigated) => navigated || reload(), reload);
  }

  private load(orgId: string | undefined): void {
    this.request?.unsubscribe();
    if (!orgId?.trim()) return this.view.set({ kind: 'no-org' });
    const key = this.keyStore.read();
    if (!key) return this.view.set({ kind: 'ask-key', rejected: false });
    this.view.set({ kind: 'loading' });
    this.request = this.api
      .report(orgId.trim(), key)
      .pipe(takeUntilDestroyed(this.destroyRef))
      .subscribe({
        next: (report) => {
          this.title.setTitle(`${report.organization.name} · Staff report`);
          this.siteFormat.use(report.valueFormat);
          this.view.set({ kind: 'ready', report });
        },
        error: (error: unknown) => this.fail(error),
      });
  }

  private fail(error: unknown): void {
    const apiError = toApiError(error);
    if (apiError.status === 401) {
      this.keyStore.forget();
      this.view.set({ kind: 'ask-key', rejected: true });
      return;
    }
    if (apiError.status === 404) {
      // Trying again cannot help: the address names an organization the CRM does not have.
      this.view.set({
        kind: 'failed',
        message: `${apiError.message} Check the organization id in the address, or ask for a new staff link.`,
        canRetry: false,
      });
      return;
    }
    this.view.set({ kind: 'failed', message: apiError.message, canRetry: true });
  }
}
