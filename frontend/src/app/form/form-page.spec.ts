import { englishCount } from './field-control';
import { formPayload } from './testing/form-payload.fixture';
import {
  byId,
  button,
  click,
  closeOpenedPage,
  expectSubmit,
  headings,
  loaded,
  openPage,
  submit,
  type,
} from './testing/form-page-harness';

afterEach(closeOpenedPage);

describe('FormPage: loading', () => {
  it('explains an incomplete link and calls no API', async () => {
    const page = await openPage('?contactId=102&orgId=101');
    page.http.expectNone('/api/data');
    expect(page.root.textContent).toContain('This link is incomplete');
  });

  it('shows a loading state while the form data loads', async () => {
    const page = await openPage();
    expect(page.root.querySelector('[role="status"]')?.textContent).toContain('Loading your check-in form');
    page.http.expectOne((request) => request.url === '/api/data').flush(formPayload());
  });

  it('says an expired link must be replaced, without a retry', async () => {
    const page = await openPage();
    page.http
      .expectOne((request) => request.url === '/api/data')
      .flush(
        { statusCode: 401, code: 'CHECKSUM_INVALID', message: 'This link is not valid or has expired.' },
        { status: 401, statusText: 'Unauthorized' },
      );
    await page.fixture.whenStable();
    expect(page.root.querySelector('[role="alert"]')?.textContent).toContain('not valid or has expired');
    expect(page.root.textContent).toContain('ask for a new personal link');
    expect(() => button(page, 'Try again')).toThrow();
  });

  it('offers to try again when the CRM is unavailable', async () => {
    const page = await openPage();
    page.http
      .expectOne((request) => request.url === '/api/data')
      .flush(
        { statusCode: 502, code: 'CRM_UNAVAILABLE', message: 'The CRM could not be reached.' },
        { status: 502, statusText: 'Bad Gateway' },
      );
    await page.fixture.whenStable();
    await click(page, button(page, 'Try again'));
    page.http.expectOne((request) => request.url === '/api/data').flush(formPayload());
    await page.fixture.whenStable();
    expect(headings(page)).toContain('Your co-op');
  });
});

describe('FormPage: sections by stage (docs/decisions.md, "Sections")', () => {
  it('shows identity and the stage read-only, the current stage open and earlier ones folded', async () => {
    const page = await loaded(formPayload(3));
    expect(page.root.querySelector('h1')?.textContent).toContain('Riverbend Food Co-op');
    const facts = Array.from(page.root.querySelectorAll('dl > div')).map((fact) => [
      fact.querySelector('dt')?.textContent?.trim(),
      fact.querySelector('dd')?.textContent?.trim(),
    ]);
    expect(facts).toEqual([
      ['First name', 'Marisol'],
      ['Last name', 'Vance'],
      ['Email', 'marisol.vance@example.org'],
      ['Current stage', 'Business planning'],
    ]);
    expect(page.root.querySelector('input#field-first_name')).toBeNull();

    expect(headings(page)).toEqual([
      'Your co-op',
      'Business planning, Current stage',
      'Feasibility, Earlier stage',
      'Organizing, Earlier stage',
    ]);
    expect(button(page, 'Business planning').getAttribute('aria-expanded')).toBe('true');
    expect(button(page, 'Organizing').getAttribute('aria-expanded')).toBe('false');
    expect(byId(page, 'section-1-body').hidden).toBe(true);

    await click(page, button(page, 'Organizing'));
    expect(byId(page, 'section-1-body').hidden).toBe(false);
  });

  it('shows only section 0 at Inquiry', async () => {
    const page = await loaded(formPayload(0));
    expect(headings(page)).toEqual(['Your co-op']);
  });

  it('labels every control and links its help and unit', async () => {
    const page = await loaded(formPayload(4));
    const controls = page.root.querySelectorAll(
      'input:not([type=radio]):not([type=checkbox]), select, textarea',
    );
    expect(controls).toHaveLength(10);
    for (const control of Array.from(controls)) {
      expect(page.root.querySelector(`label[for="${control.id}"]`)).not.toBeNull();
    }
    const percent = byId(page, 'field-Percent_capitalized');
    expect(percent.getAttribute('aria-describedby')).toBe(
      'field-Percent_capitalized-help field-Percent_capitalized-unit',
    );
    expect(percent.getAttribute('inputmode')).toBe('decimal');
    expect(byId(page, 'field-Steering_committee_size').getAttribute('inputmode')).toBe('numeric');
    expect(byId<HTMLTextAreaElement>(page, 'field-Organizing_notes').tagName).toBe('TEXTAREA');
    expect(byId(page, 'field-Business_plan_date').type).toBe('date');
  });
});

describe('FormPage: validation', () => {
  it('refuses an invalid submit with a summary that links to each field, and sends nothing', async () => {
    const page = await loaded(formPayload(3));
    await type(page, 'field-Steering_committee_size', '101');
    await type(page, 'field-Equity_share', 'a lot');
    await submit(page);

    page.http.expectNone('/api/submit');
    const summary = page.root.querySelector<HTMLElement>('.error-summary');
    expect(summary?.getAttribute('role')).toBe('alert');
    expect(document.activeElement).toBe(summary);
    const links = Array.from(summary?.querySelectorAll('a') ?? []).map((link) => [
      link.getAttribute('href'),
      link.textContent?.trim(),
    ]);
    expect(links).toEqual([
      ['#field-Equity_share', 'Equity share price: Enter a number, like 1250.'],
      ['#field-Steering_committee_size', 'Steering committee size: Enter 100 or less.'],
    ]);

    const size = byId(page, 'field-Steering_committee_size');
    expect(size.getAttribute('aria-invalid')).toBe('true');
    expect(size.getAttribute('aria-describedby')).toContain('field-Steering_committee_size-error');
    expect(byId(page, 'section-1-body').hidden).toBe(false);

    await click(page, summary!.querySelectorAll('a')[1] as HTMLElement);
    expect(document.activeElement).toBe(size);
  });

  it('puts the server’s field errors back on the fields', async () => {
    const page = await loaded(formPayload(3));
    await submit(page);
    expectSubmit(page).flush(
      {
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: 'Some answers are not valid.',
        fields: ['Equity_share'],
      },
      { status: 400, statusText: 'Bad Request' },
    );
    await page.fixture.whenStable();
    expect(page.root.querySelector('.error-summary')?.textContent).toContain(
      'Equity share price: This answer was not accepted',
    );
    expect(byId(page, 'field-Equity_share').getAttribute('aria-invalid')).toBe('true');
  });
});

describe('FormPage: character count', () => {
  it('groups a count the English way, as its sentence is English', () => {
    expect([0, 7, 255, 1968, 12345, 1000000].map(englishCount)).toEqual([
      '0',
      '7',
      '255',
      '1,968',
      '12,345',
      '1,000,000',
    ]);
  });

  it('counts the characters left as they are typed, and says it to screen readers once typing pauses', async () => {
    const page = await loaded(formPayload(3));
    const count = () =>
      byId<HTMLElement>(page, 'field-Name_on_Incorporation_Certificate-count').textContent?.trim();
    const live = () =>
      page.root
        .querySelector('#field-Name_on_Incorporation_Certificate-group [aria-live]')
        ?.textContent?.trim();
    expect(count()).toBe('You have 223 characters remaining');
    expect(live()).toBe('');

    await type(page, 'field-Name_on_Incorporation_Certificate', 'x'.repeat(256));
    expect(count()).toBe('You have 1 character too many');
    expect(live()).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await page.fixture.whenStable();
    expect(live()).toBe('You have 1 character too many');
  });
});
