import { provideHttpClient, withInterceptors } from '@angular/common/http';
import { HttpTestingController, provideHttpClientTesting } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { Title } from '@angular/platform-browser';
import { provideRouter } from '@angular/router';
import type { ErrorBody } from '@checkin/contract';
import { apiErrorInterceptor } from '../core/api-error.interceptor';
import { ReportPage } from './report-page';
import { reportFixture } from './testing/report-fixture';

const LINK = '?contactId=102&orgId=101&cid=102&cs=demo';

describe('ReportPage', () => {
  let http: HttpTestingController;

  async function open(search = LINK): Promise<ComponentFixture<ReportPage>> {
    window.history.replaceState({}, '', `/report${search}`);
    TestBed.configureTestingModule({
      providers: [
        provideRouter([]),
        provideHttpClient(withInterceptors([apiErrorInterceptor])),
        provideHttpClientTesting(),
      ],
    });
    http = TestBed.inject(HttpTestingController);
    const fixture = TestBed.createComponent(ReportPage);
    await fixture.whenStable();
    return fixture;
  }

  async function answer(fixture: ComponentFixture<ReportPage>, body: object, status = 200): Promise<void> {
    const request = http.expectOne((candidate) => candidate.url === '/api/report');
    if (status === 200) request.flush(body);
    else request.flush(body, { status, statusText: 'Error' });
    await fixture.whenStable();
  }

  function text(fixture: ComponentFixture<ReportPage>, selector: string): string[] {
    const elements = (fixture.nativeElement as HTMLElement).querySelectorAll(selector);
    return Array.from(elements, (element) => element.textContent?.replace(/\s+/g, ' ').trim() ?? '');
  }

  afterEach(() => {
    // The organizer's contact line is read once per page; its answer is not what these tests check.
    http.match('/api/organizer').forEach((request) => request.flush({ name: null, email: null }));
    http.verify();
  });

  it('asks for the report with the personal link and shows the organization and its counts', async () => {
    const fixture = await open();

    const request = http.expectOne((candidate) => candidate.url === '/api/report');
    expect(request.request.params.keys().sort()).toEqual(['cid', 'contactId', 'cs', 'orgId']);
    expect(request.request.params.get('cs')).toBe('demo');
    request.flush(reportFixture());
    await fixture.whenStable();

    expect(text(fixture, 'h1')).toEqual(['Riverbend Food Co-op']);
    expect(text(fixture, '.stage')).toEqual(['Current stage: Business planning']);
    expect(text(fixture, '.counts dt')).toEqual([
      'Check-ins sent',
      'Stage changes by staff',
      'Questions answered',
      'History covers',
    ]);
    expect(text(fixture, '.counts dd')).toEqual(['10', '2', '15', 'February 2022 – November 2026']);
    const back = (fixture.nativeElement as HTMLElement).querySelector('a.back');
    expect(back?.getAttribute('href')).toBe(`/${LINK}`);
  });

  it('names itself, then with its co-op once the report is there', async () => {
    const fixture = await open();
    const title = TestBed.inject(Title);
    expect(title.getTitle()).toBe('Check-in history');
    await answer(fixture, reportFixture());
    expect(title.getTitle()).toBe('Riverbend Food Co-op · Check-in history');
  });

  it('shows one card per stage section with answers, in stage order', async () => {
    const fixture = await open();
    await answer(fixture, reportFixture());

    expect(text(fixture, 'section[aria-labelledby^="stage-"] > h2')).toEqual([
      'Stage 1 Organizing',
      'Stage 2 Feasibility',
      'Stage 4 Capitalization',
      'Stage 5 Open',
    ]);
  });

  it('starts the cards of earlier stages collapsed, and opens one with its heading button', async () => {
    const fixture = await open();
    await answer(fixture, reportFixture());
    const element = fixture.nativeElement as HTMLElement;
    const toggles = Array.from(element.querySelectorAll<HTMLButtonElement>('.stage-card h2 button'));

    expect(toggles.map((toggle) => toggle.getAttribute('aria-expanded'))).toEqual([
      'false',
      'false',
      'true',
      'true',
    ]);
    expect(element.querySelector<HTMLElement>('#stage-1-body')?.hidden).toBe(true);

    toggles[0]?.click();
    await fixture.whenStable();

    expect(toggles[0]?.getAttribute('aria-expanded')).toBe('true');
    expect(element.querySelector<HTMLElement>('#stage-1-body')?.hidden).toBe(false);
  });

  it('says what will appear after the first check-in when there is no answer yet', async () => {
    const fixture = await open();
    await answer(fixture, { ...reportFixture(), activities: [], fieldHistory: {} });

    expect(text(fixture, '.notice.empty h2')).toEqual(['No check-ins yet']);
    expect(text(fixture, '.notice.empty p')[0]).toContain('After your first check-in, this page shows');
    expect(text(fixture, '.stage-card')).toEqual([]);
  });

  it('shows the co-op’s own facts, and no empty state, when the check-ins carry only those', async () => {
    const fixture = await open();
    const [first] = reportFixture().activities.slice(-1);
    await answer(fixture, {
      ...reportFixture(),
      activities: [{ ...first, fieldCount: 0 }],
      fieldHistory: {},
    });

    expect(text(fixture, '.notice.empty')).toEqual([]);
    expect(text(fixture, '#organization-heading')).toEqual(['Your co-op']);
    expect(text(fixture, '.facts dt')).toEqual(['Equity share price']);
    expect(text(fixture, '.facts dd')).toEqual(['$200.00']);
    // That check-in set the stage: staff recorded it, no owner sent it.
    expect(text(fixture, '.counts dt').slice(0, 3)).toEqual([
      'Check-ins sent',
      'Stage changes by staff',
      'Questions answered',
    ]);
    expect(text(fixture, '.counts dd').slice(0, 3)).toEqual(['0', '1', '1']);
  });

  it('explains what will appear when the only check-in is a stage change staff recorded', async () => {
    const fixture = await open();
    const report = reportFixture();
    const [staffStageChange] = report.activities.slice(-1);
    await answer(fixture, {
      ...report,
      activities: [{ ...staffStageChange, fieldCount: 0 }],
      fieldHistory: {},
      organizationFacts: { ...report.organizationFacts, fields: [] },
    });

    expect(text(fixture, '.counts dd').slice(0, 3)).toEqual(['0', '1', '0']);
    expect(text(fixture, '.notice.empty h2')).toEqual(['No check-ins yet']);
    expect(text(fixture, '.notice.empty p')[0]).toContain('After your first check-in, this page shows');
  });

  it('shows each field’s latest value with its date, and expands its earlier entries', async () => {
    const fixture = await open();
    await answer(fixture, reportFixture());
    const notes = (fixture.nativeElement as HTMLElement).querySelector<HTMLElement>(
      'app-field-entries:has(#field-Organizing_notes)',
    );
    const toggle = notes?.querySelector('button');

    expect(notes?.querySelector('.latest')?.textContent).toContain('Grand opening weekend.');
    expect(notes?.querySelector('.latest time')?.getAttribute('datetime')).toBe('2025-03-10T09:00:00');
    expect(toggle?.textContent?.trim()).toBe('1 earlier entry');
    expect(toggle?.getAttribute('aria-expanded')).toBe('false');
    const history = notes?.querySelector(`#${toggle?.getAttribute('aria-controls')}`);
    expect(history?.hasAttribute('hidden')).toBe(true);

    toggle?.click();
    await fixture.whenStable();

    expect(toggle?.getAttribute('aria-expanded')).toBe('true');
    expect(history?.hasAttribute('hidden')).toBe(false);
    expect(text(fixture, '#field-Organizing_notes-history li .value')).toEqual(['First public meeting.']);
    expect(text(fixture, '#field-Organizing_notes-history li time')).toEqual(['April 10, 2022']);
  });

  it('leads the earlier entries of a numeric field with a trend chart and its extremes', async () => {
    window.matchMedia = jest.fn().mockReturnValue({ matches: true });
    const fixture = await open();
    await answer(fixture, reportFixture());
    const members = (fixture.nativeElement as HTMLElement).querySelector<HTMLElement>(
      'app-field-entries:has(#field-Member_owner_count)',
    );

    members?.querySelector('button')?.click();
    await fixture.whenStable();

    const history = members?.querySelector('.history');
    expect(history?.firstElementChild?.tagName).toBe('APP-TREND-CHART');
    expect(text(fixture, '#field-Member_owner_count-history figcaption .extreme')).toEqual([
      'Lowest 118',
      'Highest 902',
    ]);
    expect(text(fixture, '#field-Member_owner_count-history figcaption .visually-hidden')).toEqual([
      'Member-owners: 5 points from March 5, 2023 (118) to March 10, 2025 (902).',
    ]);
    expect(members?.querySelector('figure [aria-hidden="true"] ngx-charts-line-chart')).not.toBeNull();
  });

  it('offers no disclosure for a field answered once', async () => {
    const fixture = await open();
    await answer(fixture, reportFixture());

    const meeting = (fixture.nativeElement as HTMLElement).querySelector(
      'app-field-entries:has(#field-Organizing_meeting_date)',
    );
    expect(meeting?.querySelector('button')).toBeNull();
  });

  it('leads a timeline marker to its field’s heading', async () => {
    const fixture = await open();
    await answer(fixture, reportFixture());
    const page = fixture.nativeElement as HTMLElement;
    document.body.appendChild(page);
    // jsdom lays nothing out, so it has no scrolling to do.
    const scrollIntoView = jest.fn();
    Element.prototype.scrollIntoView = scrollIntoView;
    const marker = Array.from(page.querySelectorAll<HTMLButtonElement>('app-report-timeline button')).find(
      (button) => button.textContent?.includes('Date opened'),
    );

    marker?.click();

    expect(marker?.textContent?.replace(/\s+/g, ' ').trim()).toBe('Date opened: March 8, 2025');
    expect(document.activeElement?.id).toBe('field-Date_Opened');
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    page.remove();
  });

  it('explains a link the service refused, without offering to try again', async () => {
    const fixture = await open();
    const refusal: ErrorBody = {
      statusCode: 401,
      code: 'CHECKSUM_INVALID',
      message: 'This link is not valid or has expired. Ask your organizer for a new one.',
    };
    await answer(fixture, refusal, 401);

    // The same words as the form's page for the same problem, and who to ask for a new link.
    expect(text(fixture, '[role="alert"] h2')).toEqual(['This link is not valid or has expired']);
    expect(text(fixture, '[role="alert"] p')[0]).toBe(
      'Personal links stop working after a while, and a link copied only in part never works.',
    );
    expect(text(fixture, '[role="alert"]')[0]).toContain('new');
    expect(text(fixture, 'button')).toEqual([]);
  });

  it('offers to try again when the CRM is unavailable, and then shows the report', async () => {
    const fixture = await open();
    await answer(
      fixture,
      { statusCode: 502, code: 'CRM_UNAVAILABLE', message: 'The CRM could not be reached.' },
      502,
    );
    const retry = (fixture.nativeElement as HTMLElement).querySelector<HTMLButtonElement>(
      '[role="alert"] button',
    );
    expect(retry?.textContent?.trim()).toBe('Try again');

    retry?.click();
    await fixture.whenStable();
    expect(text(fixture, '[role="status"]')).toEqual(['Loading your co-op’s check-in history…']);
    await answer(fixture, reportFixture());

    expect(text(fixture, 'h1')).toEqual(['Riverbend Food Co-op']);
  });

  it('lets a person with several co-ops and no orgId choose one by name, each a link to its report', async () => {
    const fixture = await open('?cid=105&cs=demo-multi');
    const body: ErrorBody = { statusCode: 400, code: 'ORG_REQUIRED', message: 'Several co-ops.' };
    await answer(fixture, body, 400);
    http
      .expectOne((candidate) => candidate.url === '/api/organizations')
      .flush({
        organizations: [
          { id: 106, name: 'Harbor Co-op' },
          { id: 107, name: 'Hilltop Co-op' },
        ],
      });
    await fixture.whenStable();

    expect(text(fixture, '[role="alert"] h2')).toEqual(['Which co-op’s history?']);
    const links = Array.from(
      (fixture.nativeElement as HTMLElement).querySelectorAll<HTMLAnchorElement>('.choices a'),
    );
    expect(links.map((link) => [link.textContent?.trim(), link.getAttribute('href')])).toEqual([
      ['Harbor Co-op', '/report?orgId=106&cid=105&cs=demo-multi'],
      ['Hilltop Co-op', '/report?orgId=107&cid=105&cs=demo-multi'],
    ]);
  });

  it('asks for the personal link when the address has none, without calling the API', async () => {
    const fixture = await open('?orgId=101');

    expect(text(fixture, '.notice')[0]).toContain('This page needs your personal link.');
    http.expectNone('/api/report');
  });
});
