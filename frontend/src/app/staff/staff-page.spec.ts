import { provideHttpClient, withInterceptors } from '@angular/common/http';
import {
  HttpTestingController,
  provideHttpClientTesting,
  type TestRequest,
} from '@angular/common/http/testing';
import { DeferBlockBehavior, DeferBlockState, TestBed } from '@angular/core/testing';
import { provideRouter, Router, withComponentInputBinding } from '@angular/router';
import { RouterTestingHarness } from '@angular/router/testing';
import type { StaffReportPayload } from '@checkin/contract';
import { apiErrorInterceptor } from '../core/api-error.interceptor';
import { StaffPage } from './staff-page';
import { staffReportFixture } from './testing/staff-report.fixture';

const STORAGE_KEY = 'checkin.staffKey';

async function openPage(url: string, deferBlockBehavior = DeferBlockBehavior.Playthrough) {
  TestBed.configureTestingModule({
    deferBlockBehavior,
    providers: [
      provideRouter([{ path: 'staff', component: StaffPage }], withComponentInputBinding()),
      provideHttpClient(withInterceptors([apiErrorInterceptor])),
      provideHttpClientTesting(),
    ],
  });
  const harness = await RouterTestingHarness.create(url);
  const http = TestBed.inject(HttpTestingController);
  const settle = async () => {
    await harness.fixture.whenStable();
    // The sections after the first are built once the browser is idle (staff-page.html).
    for (const block of await harness.fixture.getDeferBlocks()) await block.render(DeferBlockState.Complete);
    await harness.fixture.whenStable();
  };
  await settle();
  return { harness, http, settle, element: harness.routeNativeElement as HTMLElement };
}

function expectReportRequest(http: HttpTestingController, key: string): TestRequest {
  const request = http.expectOne((candidate) => candidate.url === '/api/staff/report');
  expect(request.request.params.get('orgId')).toBe('101');
  expect(request.request.headers.get('X-Staff-Key')).toBe(key);
  return request;
}

async function openReport(payload: StaffReportPayload = staffReportFixture()) {
  sessionStorage.setItem(STORAGE_KEY, 'staff-key');
  const page = await openPage('/staff?orgId=101');
  expectReportRequest(page.http, 'staff-key').flush(payload);
  await page.settle();
  return page;
}

/** The text a screen reader gets: without aria-hidden parts, whitespace collapsed. */
function spokenText(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
  return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
}

function button(element: HTMLElement, text: string): HTMLButtonElement {
  const found = Array.from(element.querySelectorAll('button')).find(
    (candidate) => spokenText(candidate) === text,
  );
  if (!found) throw new Error(`No button "${text}"`);
  return found;
}

function linkTargets(element: HTMLElement): Array<[string, string | null]> {
  return Array.from(element.querySelectorAll('a')).map((link) => [
    spokenText(link),
    link.getAttribute('href'),
  ]);
}

describe('StaffPage', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => TestBed.inject(HttpTestingController).verify());

  describe('the staff key (docs/decisions.md, "Staff page")', () => {
    it('moves a key in the address to session storage and out of the address, then sends it as X-Staff-Key', async () => {
      const { http } = await openPage('/staff?orgId=101&key=from-link');
      expect(TestBed.inject(Router).url).toBe('/staff?orgId=101');
      expect(sessionStorage.getItem(STORAGE_KEY)).toBe('from-link');
      expectReportRequest(http, 'from-link').flush(staffReportFixture());
    });

    it('asks for the key when none is stored, then loads with the one entered', async () => {
      const { http, settle, element } = await openPage('/staff?orgId=101');
      http.expectNone('/api/staff/report?orgId=101');
      const input = element.querySelector<HTMLInputElement>('input#staff-key');
      expect(input?.type).toBe('password');
      expect(element.querySelector('label[for="staff-key"]')?.textContent).toContain('Staff key');

      input!.value = 'typed-key';
      input!.dispatchEvent(new Event('input'));
      button(element, 'Open the report').click();
      await settle();

      expect(sessionStorage.getItem(STORAGE_KEY)).toBe('typed-key');
      expectReportRequest(http, 'typed-key').flush(staffReportFixture());
      await settle();
      expect(element.querySelector('h1')?.textContent).toBe('Riverbend Food Co-op');
    });

    it('asks again, forgetting the stored key, when the API refuses it', async () => {
      sessionStorage.setItem(STORAGE_KEY, 'stale-key');
      const { http, settle, element } = await openPage('/staff?orgId=101');
      expectReportRequest(http, 'stale-key').flush(
        { statusCode: 401, code: 'STAFF_KEY_INVALID', message: 'The staff key is missing or wrong.' },
        { status: 401, statusText: 'Unauthorized' },
      );
      await settle();
      expect(sessionStorage.getItem(STORAGE_KEY)).toBeNull();
      expect(element.querySelector('[role="alert"]')?.textContent).toContain('was not accepted');
      expect(element.querySelector('input#staff-key')).not.toBeNull();
    });

    it('says what is missing when the address names no organization', async () => {
      sessionStorage.setItem(STORAGE_KEY, 'staff-key');
      const { http, element } = await openPage('/staff');
      http.expectNone(() => true);
      expect(element.textContent).toContain('names no organization');
    });

    it('shows the API’s message and a retry for other failures', async () => {
      sessionStorage.setItem(STORAGE_KEY, 'staff-key');
      const { http, settle, element } = await openPage('/staff?orgId=101');
      expectReportRequest(http, 'staff-key').flush(
        { statusCode: 502, code: 'CRM_UNAVAILABLE', message: 'The CRM could not be reached.' },
        { status: 502, statusText: 'Bad Gateway' },
      );
      await settle();
      expect(element.querySelector('[role="alert"]')?.textContent).toContain('The CRM could not be reached.');
      button(element, 'Try again').click();
      expectReportRequest(http, 'staff-key').flush(staffReportFixture());
    });
  });

  describe('the report', () => {
    it('builds the first section at once and the others once the browser is idle', async () => {
      sessionStorage.setItem(STORAGE_KEY, 'staff-key');
      // Manual: the idle trigger never fires by itself here, the test says when the browser is idle.
      const { harness, http, element } = await openPage('/staff?orgId=101', DeferBlockBehavior.Manual);
      const payload = staffReportFixture();
      expectReportRequest(http, 'staff-key').flush(payload);
      await harness.fixture.whenStable();
      expect(element.querySelectorAll('app-staff-section')).toHaveLength(1);
      // One placeholder per later section, with its heading's id (the chips' target).
      expect(element.querySelectorAll('.section-placeholder')).toHaveLength(payload.sections.length - 1);
      for (const block of await harness.fixture.getDeferBlocks())
        await block.render(DeferBlockState.Complete);
      expect(element.querySelectorAll('app-staff-section')).toHaveLength(payload.sections.length);
      expect(element.querySelectorAll('.section-placeholder')).toHaveLength(0);
    });

    it('has a chip per section plus Submissions; a chip moves focus to its heading and is marked', async () => {
      // jsdom lays nothing out, so it has no scrollIntoView of its own.
      const scrollIntoView = jest.fn();
      Element.prototype.scrollIntoView = scrollIntoView;
      const { settle, element } = await openReport();
      const chips = Array.from(element.querySelectorAll('nav[aria-label="Report sections"] button'));
      expect(chips.map((chip) => chip.textContent?.trim())).toEqual([
        'Organization',
        '2 · Feasibility',
        '5 · Open',
        'Submissions',
      ]);

      button(element, '5 · Open').click();
      await settle();
      expect(document.activeElement?.textContent).toBe('Stage 5: Open');
      expect(scrollIntoView.mock.contexts).toEqual([document.activeElement]);
      expect(button(element, '5 · Open').getAttribute('aria-current')).toBe('true');
      expect(button(element, 'Organization').hasAttribute('aria-current')).toBe(false);
    });

    it('shows compact rows with the latest value and date, and earlier entries behind a toggle', async () => {
      const { settle, element } = await openReport();
      const toggle = button(element, '1 earlier entry');
      const earlier = element.querySelector(`#${toggle.getAttribute('aria-controls')}`) as HTMLElement;
      expect(toggle.getAttribute('aria-expanded')).toBe('false');
      expect(earlier.hidden).toBe(true);
      expect(element.textContent).toContain('262 members');
      expect(element.textContent).toContain('September 27, 2023');

      toggle.click();
      await settle();
      expect(toggle.getAttribute('aria-expanded')).toBe('true');
      expect(earlier.hidden).toBe(false);
      expect(earlier.textContent).toContain('Attachment #2');
    });

    it('keeps empty fields behind a "N empty fields" toggle per section', async () => {
      const { settle, element } = await openReport();
      const toggle = button(element, '1 empty field');
      const list = element.querySelector(`#${toggle.getAttribute('aria-controls')}`) as HTMLElement;
      expect(list.hidden).toBe(true);
      toggle.click();
      await settle();
      expect(list.hidden).toBe(false);
      expect(list.textContent).toContain('Date incorporated');
    });

    it('shows the stage-5 matrix read-only: metrics by quarters, with a restated value', async () => {
      const { element } = await openReport();
      const table = element.querySelector('table');
      const headers = Array.from(table!.querySelectorAll('thead th')).map((cell) => [
        cell.textContent?.trim(),
        cell.getAttribute('scope'),
      ]);
      expect(headers).toEqual([
        ['Metric', 'col'],
        ['Q1', 'col'],
        ['Q2', 'col'],
        ['Q3', 'col'],
        ['Q4', 'col'],
      ]);
      const row = table!.querySelector('tbody tr')!;
      expect(row.querySelector('th[scope="row"]')?.textContent?.trim()).toBe('Sales');
      const cells = Array.from(row.querySelectorAll('td')).map(spokenText);
      // Each cell: the latest value, the date it was given, and the value a restatement replaced.
      expect(cells).toEqual([
        '$615,400.00 January 10, 2026 was $612,000.00',
        '$688,500.00 February 10, 2026',
        'No value',
        'No value',
      ]);
      expect(table!.querySelector('input, button')).toBeNull();
    });

    it('links files to their signed url, else the CRM file address, in a new tab', async () => {
      const { settle, element } = await openReport();
      button(element, '1 earlier entry').click();
      await settle();
      expect(linkTargets(element)).toEqual([
        ['certificate.pdf (opens in a new tab)', 'https://crm.example.org/civicrm/file?reset=1&id=1&fcs=s1'],
        ['study.pdf (opens in a new tab)', 'https://crm.example.org/civicrm/file?reset=1&id=3'],
        ['Attachment #2 (opens in a new tab)', 'https://crm.example.org/civicrm/file?reset=1&id=2'],
      ]);
      for (const link of Array.from(element.querySelectorAll('a'))) {
        expect(link.target).toBe('_blank');
        expect(link.rel).toBe('noopener noreferrer');
      }
    });

    it('uses the extension route and says so when the CRM gave no signed links', async () => {
      const { element } = await openReport(
        staffReportFixture({ fileRouteTemplate: 'civicrm/checkin-file/{id}', fileUrlLookup: 'failed' }),
      );
      expect(linkTargets(element)[1]).toEqual([
        'study.pdf (opens in a new tab)',
        'https://crm.example.org/civicrm/checkin-file/3',
      ]);
      expect(element.textContent).toContain('did not hand out signed file links');
    });

    it('keeps a large co-op light: submissions a page at a time, earlier entries built when opened', async () => {
      const payload = staffReportFixture();
      const [template] = payload.submissions;
      payload.submissions = Array.from({ length: 60 }, (_, index) => ({ ...template!, id: 5000 - index }));
      const { element, settle } = await openReport(payload);
      const rows = () =>
        element.querySelector('#staff-submissions')!.closest('section')!.querySelectorAll('tbody tr');
      expect(rows()).toHaveLength(25);
      button(element, 'Show 25 more of 35 older check-ins').click();
      await settle();
      expect(rows()).toHaveLength(50);
      button(element, 'Show 10 more of 10 older check-ins').click();
      await settle();
      expect(rows()).toHaveLength(60);

      const toggle = button(element, '1 earlier entry');
      const earlier = element.querySelector(`#${toggle.getAttribute('aria-controls')}`) as HTMLElement;
      expect(earlier.querySelectorAll('li')).toHaveLength(0);
      toggle.click();
      await settle();
      expect(earlier.querySelectorAll('li')).toHaveLength(1);
    });

    it('lists the submissions newest first with the stage each one set', async () => {
      const { element } = await openReport();
      const submissions = element.querySelector('#staff-submissions')!.closest('section')!;
      const rows = Array.from(submissions.querySelectorAll('tbody tr'));
      const texts = rows.map((row) => Array.from(row.querySelectorAll('td')).map(spokenText));
      expect(texts).toEqual([
        ['September 27, 2023', '#1008', 'Organizing check-in', 'Marisol Vance', '', '2'],
        ['January 16, 2023', '#1005', 'Stage set', 'Sam Whitaker', 'Business planning', '0'],
      ]);
    });
  });
});
