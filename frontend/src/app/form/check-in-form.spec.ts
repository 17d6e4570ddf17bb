import type { FormControl } from '@angular/forms';
import type { FieldConfig, FileValue } from '@checkin/contract';
import {
  buildCheckInForm,
  buildEntry,
  type CheckInForm,
  draftDiffersFrom,
  draftValuesOf,
  type FieldEntry,
  fingerprintOf,
  restoreDraftValues,
  submitValuesOf,
  visibleSections,
  changesOf,
} from './check-in-form';
import { formPayload } from './testing/form-payload.fixture';

function entry(form: CheckInForm, name: string): FieldEntry {
  const found = form.entries.find((candidate) => candidate.field.name === name);
  if (!found) throw new Error(`no field ${name}`);
  return found;
}

/** The control of a field whose value is text: text, number, currency, percent, date, select. */
function textControl(form: CheckInForm, name: string): FormControl<string> {
  const found = entry(form, name);
  switch (found.kind) {
    case 'text':
    case 'number':
    case 'currency':
    case 'percent':
    case 'date':
    case 'select':
      return found.control;
    case 'boolean':
    case 'multiselect':
    case 'file':
      throw new Error(`${name} does not hold text`);
  }
}

function listControl(form: CheckInForm, name: string): FormControl<string[]> {
  const found = entry(form, name);
  if (found.kind !== 'multiselect') throw new Error(`${name} is not a multiselect`);
  return found.control;
}

function fileControl(form: CheckInForm, name: string): FormControl<FileValue | null> {
  const found = entry(form, name);
  if (found.kind !== 'file') throw new Error(`${name} is not a file field`);
  return found.control;
}

describe('visibleSections (docs/decisions.md, "Sections")', () => {
  const sections = formPayload().sections;

  it('shows section 0, then the current stage, then the earlier stages nearest first', () => {
    expect(visibleSections(sections, 3).map((section) => [section.rank, section.role])).toEqual([
      [0, 'organization'],
      [3, 'current'],
      [2, 'earlier'],
      [1, 'earlier'],
    ]);
  });

  it('shows only section 0 at Inquiry (rank 0)', () => {
    expect(visibleSections(sections, 0).map((section) => section.rank)).toEqual([0]);
  });

  it('never shows a later stage', () => {
    expect(visibleSections(sections, 1).map((section) => section.rank)).toEqual([0, 1]);
    expect(visibleSections(sections, 5).map((section) => section.rank)).toEqual([0, 5, 4, 3, 2, 1]);
  });
});

describe('buildCheckInForm', () => {
  it('shows identity read-only from the contact, never from prefill', () => {
    const form = buildCheckInForm(formPayload(3, { first_name: 'Mallory', email: 'mallory@example.org' }));
    const readOnly = form.sections[0]?.readOnly.map((item) => [item.field.name, item.text]);
    expect(readOnly).toEqual([
      ['first_name', 'Marisol'],
      ['last_name', 'Vance'],
      ['email', 'marisol.vance@example.org'],
      ['current_stage', 'Business planning'],
    ]);
  });

  it('gives no control to identity, the current stage or read-only fields', () => {
    const form = buildCheckInForm(formPayload());
    const names = Object.keys(form.group.controls);
    for (const name of ['first_name', 'last_name', 'email', 'current_stage'])
      expect(names).not.toContain(name);
  });

  it('builds controls only for the sections shown', () => {
    const form = buildCheckInForm(formPayload(2));
    expect(Object.keys(form.group.controls)).toEqual([
      'Date_Incorporated',
      'Name_on_Incorporation_Certificate',
      'Certificate_of_Incorporation',
      'Equity_share',
      'Market_study_status',
      'Feasibility_study',
      'Steering_committee_size',
      'Mission_statement_adopted',
      'Organizing_focus',
      'Organizing_notes',
    ]);
  });

  it('turns prefill into each type’s control value', () => {
    const form = buildCheckInForm(
      formPayload(3, { Date_Incorporated: '2021-09-30 00:00:00', Market_study_status: 'complete' }),
    );
    expect(entry(form, 'Date_Incorporated').control.value).toBe('2021-09-30');
    expect(entry(form, 'Equity_share').control.value).toBe('200');
    expect(entry(form, 'Steering_committee_size').control.value).toBe('9');
    expect(entry(form, 'Mission_statement_adopted').control.value).toBe(true);
    expect(entry(form, 'Business_plan_done').control.value).toBeNull();
    expect(entry(form, 'Organizing_focus').control.value).toEqual(['groceries', 'bulk_foods']);
    expect(entry(form, 'Market_study_status').control.value).toBe('complete');
    expect(entry(form, 'Certificate_of_Incorporation').control.value).toEqual({
      id: 7,
      file_name: 'certificate.pdf',
    });
    expect(entry(form, 'Feasibility_study').control.value).toBeNull();
  });

  it('uses a textarea for text longer than 255 characters', () => {
    const form = buildCheckInForm(formPayload());
    const multiline = (name: string) => {
      const found = entry(form, name);
      return found.kind === 'text' && found.multiline;
    };
    expect(multiline('Organizing_notes')).toBe(true);
    expect(multiline('Name_on_Incorporation_Certificate')).toBe(false);
  });

  it('validates each control by its type', () => {
    const form = buildCheckInForm(formPayload(4));
    textControl(form, 'Steering_committee_size').setValue('101');
    textControl(form, 'Percent_capitalized').setValue('12.5');
    textControl(form, 'Equity_share').setValue('abc');
    expect(entry(form, 'Steering_committee_size').control.errors).toEqual({ max: { max: 100 } });
    expect(entry(form, 'Percent_capitalized').control.errors).toBeNull();
    expect(entry(form, 'Equity_share').control.errors).toEqual({ number: true });
    expect(form.group.invalid).toBe(true);
  });

  it('keeps a live state for templates: value, errors and touched', () => {
    const field: FieldConfig = { name: 'n', type: 'number', label: 'N', max: 5 };
    const built = buildEntry(field, 3);
    if (built.kind !== 'number') throw new Error('a number field builds a number entry');
    built.control.setValue('7');
    built.control.markAsTouched();
    expect(built.state()).toEqual({ value: '7', errors: { max: { max: 5 } }, touched: true });
  });
});

describe('submitValuesOf', () => {
  it('sends nothing for an untouched form: the check-in records that nothing changed', () => {
    expect(submitValuesOf(buildCheckInForm(formPayload(5)))).toEqual({});
  });

  it('sends only changed answers, typed for the CRM, and a cleared one as null', () => {
    const form = buildCheckInForm(formPayload(1));
    textControl(form, 'Equity_share').setValue('1,250.50');
    textControl(form, 'Name_on_Incorporation_Certificate').setValue('  Riverbend  ');
    listControl(form, 'Organizing_focus').setValue([]);
    textControl(form, 'Date_Incorporated').setValue('2019-03-01');
    expect(submitValuesOf(form)).toEqual({
      Date_Incorporated: '2019-03-01',
      Name_on_Incorporation_Certificate: 'Riverbend',
      Equity_share: 1250.5,
      Organizing_focus: null,
    });
  });

  it('treats the same answer written differently as unchanged', () => {
    const form = buildCheckInForm(formPayload(1));
    textControl(form, 'Equity_share').setValue('$200.00');
    textControl(form, 'Name_on_Incorporation_Certificate').setValue(' Riverbend Food Cooperative, Inc. ');
    listControl(form, 'Organizing_focus').setValue(['bulk_foods', 'groceries']);
    expect(submitValuesOf(form)).toEqual({});
  });

  it('sends a file as the stored {id, file_name}, never a browser file', () => {
    const form = buildCheckInForm(formPayload(2));
    fileControl(form, 'Feasibility_study').setValue({ id: 41, file_name: 'study.pdf' });
    expect(submitValuesOf(form)['Feasibility_study']).toEqual({ id: 41, file_name: 'study.pdf' });
  });

  it('starts a never-prefilled field empty, whatever the payload holds, and sends it once answered', () => {
    const form = buildCheckInForm(formPayload(1, { Organizing_notes: 'Last time’s note' }));
    expect(textControl(form, 'Organizing_notes').value).toBe('');
    textControl(form, 'Organizing_notes').setValue('Met the landlord.');
    expect(submitValuesOf(form)).toEqual({ Organizing_notes: 'Met the landlord.' });
  });

  it('never sends identity or the current stage', () => {
    const form = buildCheckInForm(formPayload(5));
    for (const item of form.entries) {
      if (item.kind === 'date') item.control.setValue('2026-01-02');
    }
    const names = Object.keys(submitValuesOf(form));
    expect(names).toContain('Date_Opened');
    for (const name of ['first_name', 'last_name', 'email', 'current_stage'])
      expect(names).not.toContain(name);
  });
});

describe('changesOf', () => {
  it('names each change as added, changed or cleared, with the old and new answers', () => {
    const form = buildCheckInForm(formPayload(1));
    textControl(form, 'Equity_share').setValue('250');
    textControl(form, 'Date_Incorporated').setValue('2019-03-01');
    fileControl(form, 'Certificate_of_Incorporation').setValue(null);
    expect(
      changesOf(form).map(({ entry: changed, kind, before, after }) => [
        changed.field.name,
        kind,
        before,
        after,
      ]),
    ).toEqual([
      ['Date_Incorporated', 'added', null, '2019-03-01'],
      ['Certificate_of_Incorporation', 'cleared', { id: 7, file_name: 'certificate.pdf' }, null],
      ['Equity_share', 'changed', 200, 250],
    ]);
  });
});

describe('restoring a draft over answers typed meanwhile', () => {
  it('keeps what was typed since the page opened, and names it', () => {
    const form = buildCheckInForm(formPayload(1));
    textControl(form, 'Equity_share').setValue('999');
    const kept = restoreDraftValues(form, { Equity_share: '300', Steering_committee_size: '12' });
    expect(kept).toEqual(['Equity share price']);
    expect(textControl(form, 'Equity_share').value).toBe('999');
    expect(textControl(form, 'Steering_committee_size').value).toBe('12');
  });
});

describe('drafts and the form', () => {
  it('restores drafted answers but never identity, and ignores values of the wrong shape', () => {
    const form = buildCheckInForm(formPayload(1));
    restoreDraftValues(form, {
      first_name: 'Mallory',
      Equity_share: '300',
      Mission_statement_adopted: 'yes',
      Organizing_focus: ['local_produce'],
      Certificate_of_Incorporation: null,
      Unknown_field: 'x',
    });
    expect(draftValuesOf(form)).toEqual(
      expect.objectContaining({
        Equity_share: '300',
        Mission_statement_adopted: true,
        Organizing_focus: ['local_produce'],
        Certificate_of_Incorporation: null,
      }),
    );
    expect(draftValuesOf(form)).not.toHaveProperty('first_name');
    expect(form.sections[0]?.readOnly[0]?.text).toBe('Marisol');
  });

  it('tells a draft that differs from the prefill from one that does not', () => {
    const form = buildCheckInForm(formPayload(1));
    const unchanged = draftValuesOf(form);
    expect(draftDiffersFrom(form, unchanged)).toBe(false);
    expect(draftDiffersFrom(form, { ...unchanged, first_name: 'Mallory' })).toBe(false);
    expect(draftDiffersFrom(form, { ...unchanged, Equity_share: '250' })).toBe(true);
  });

  it('keeps an uploaded file’s receipt through the draft and sends it with the submission', () => {
    const form = buildCheckInForm(formPayload(1));
    const uploaded: FileValue = { id: 4321, file_name: 'plan.pdf', receipt: 'r'.repeat(43) };
    fileControl(form, 'Certificate_of_Incorporation').setValue(uploaded);

    const restored = buildCheckInForm(formPayload(1));
    restoreDraftValues(restored, draftValuesOf(form));

    expect(fileControl(restored, 'Certificate_of_Incorporation').value).toEqual(uploaded);
    expect(submitValuesOf(restored)['Certificate_of_Incorporation']).toEqual(uploaded);
  });

  it('keeps what was typed, even when it is not valid yet', () => {
    const form = buildCheckInForm(formPayload(1));
    textControl(form, 'Steering_committee_size').setValue('twelve');
    expect(draftValuesOf(form)['Steering_committee_size']).toBe('twelve');
  });
});

describe('fingerprintOf', () => {
  it('does not depend on the order of the fields', () => {
    expect(fingerprintOf({ a: 1, b: ['x', 'y'] })).toBe(fingerprintOf({ b: ['x', 'y'], a: 1 }));
    expect(fingerprintOf({ a: 1 })).not.toBe(fingerprintOf({ a: 2 }));
  });
});
