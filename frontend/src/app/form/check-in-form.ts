import { type Signal, signal } from '@angular/core';
import { FormControl, FormGroup, type ValidationErrors, type ValidatorFn } from '@angular/forms';
import {
  CURRENT_STAGE_FIELD_NAME,
  IDENTITY_FIELD_NAMES,
  type FieldConfig,
  type FieldType,
  type FieldValue,
  type FieldValues,
  type FileValue,
  type FormDataPayload,
  type OptionMap,
  type OwnerLinkParams,
  type SectionConfig,
  type StageRank,
  type UploadLimits,
  DEFAULT_TEXT_MAX_LENGTH,
  isEmptyAnswer,
  isFileValue,
} from '@checkin/contract';
import { formatContextOf, formatValue, multiValues } from '../core/value-format';
import {
  dateValidator,
  type NumericFieldType,
  numberValidator,
  parseNumberText,
  textValidator,
} from './field-validation';

/**
 * The check-in form's model, built from the /api/data payload: which sections show (docs/decisions.md, "Sections"),
 * one typed FormControl per editable field, and the conversions between prefill, draft and
 * submit values. Pure functions, so every rule is tested without rendering.
 */

/** What an OnPush template needs to know about a control, kept current by its events. */
export interface ControlState<V> {
  value: V;
  errors: ValidationErrors | null;
  touched: boolean;
}

interface EntryOf<K extends FieldType, V> {
  readonly kind: K;
  readonly field: FieldConfig;
  readonly control: FormControl<V>;
  readonly state: Signal<ControlState<V>>;
  /** Sets a draft's value, when it has the shape this field takes; anything else is ignored. */
  readonly restore: (drafted: FieldValue) => void;
  /** True when a draft's value fits this field and differs from what it was prefilled with. */
  readonly differsFromPrefill: (drafted: FieldValue) => boolean;
  /** True when a draft's value fits this field and equals what it holds now. */
  readonly matches: (drafted: FieldValue) => boolean;
  /** The answer as /api/submit takes it, typed for the CRM; null when not answered. */
  readonly submitValue: () => FieldValue;
  /** What the form was prefilled with, as submitValue reads it; null for a field that starts empty. */
  readonly prefilled: FieldValue;
  /** When the prefilled answer was given (ISO 8601), when the payload knows. */
  readonly lastGiven: string | null;
}

export type TextEntry = EntryOf<'text', string> & { readonly multiline: boolean };
/** Numbers stay the text the person typed until submit, so "12abc" can be explained, not lost. */
export type NumberEntry = EntryOf<NumericFieldType, string>;
/** 'YYYY-MM-DD', or '' when not answered. */
export type DateEntry = EntryOf<'date', string>;
/** null is "not answered", distinct from No. */
export type BooleanEntry = EntryOf<'boolean', boolean | null>;
/** The CRM's option value, or '' when not answered. */
export type SelectEntry = EntryOf<'select', string>;
export type MultiselectEntry = EntryOf<'multiselect', string[]>;
/** The stored file as the upload route answered it; never the browser's FileList. */
export type FileEntry = EntryOf<'file', FileValue | null>;

export type FieldEntry =
  TextEntry | NumberEntry | DateEntry | BooleanEntry | SelectEntry | MultiselectEntry | FileEntry;

export type CheckInControl = FieldEntry['control'];

/** A field shown but never edited, submitted or drafted: identity, the current stage, readonly. */
export interface ReadOnlyItem {
  readonly field: FieldConfig;
  readonly text: string;
}

export type SectionRole = 'organization' | 'current' | 'earlier';

export interface FormSection {
  readonly rank: StageRank;
  readonly title: string;
  readonly description?: string;
  readonly role: SectionRole;
  readonly readOnly: readonly ReadOnlyItem[];
  readonly entries: readonly FieldEntry[];
}

export interface CheckInForm {
  readonly group: FormGroup<Record<string, CheckInControl>>;
  /** In display order: section 0, the current stage, then the earlier stages. */
  readonly sections: readonly FormSection[];
  readonly entries: readonly FieldEntry[];
}

/** What the fields need besides their own configuration: the link, the ids, options and limits. */
export interface FormContext {
  readonly link: OwnerLinkParams;
  readonly contactId: string;
  readonly orgId: string;
  readonly options: OptionMap;
  readonly upload: UploadLimits;
}

/** The ids the server resolved (the link may leave orgId out when the person has one organization). */
export function formContextOf(payload: FormDataPayload, link: OwnerLinkParams): FormContext {
  return {
    link,
    contactId: String(payload.contact.id),
    orgId: String(payload.organization.id),
    options: payload.options,
    upload: payload.upload,
  };
}

export function buildCheckInForm(payload: FormDataPayload): CheckInForm {
  const sections = visibleSections(payload.sections, payload.currentStage.rank).map((section) =>
    buildSection(section, payload),
  );
  const entries = sections.flatMap((section) => section.entries);
  const controls: Record<string, CheckInControl> = {};
  for (const entry of entries) controls[entry.field.name] = entry.control;
  return { group: new FormGroup(controls), sections, entries };
}

/**
 * docs/decisions.md, "Sections": section 0 always; stage sections 1..rank with the current stage first, then the
 * earlier ones, nearest first; later stages are not shown.
 */
export function visibleSections(
  sections: readonly SectionConfig[],
  currentRank: StageRank,
): Array<SectionConfig & { role: SectionRole }> {
  const byRank = (rank: number) => sections.find((section) => section.rank === rank);
  const ranks = [0, ...Array.from({ length: currentRank }, (_, index) => currentRank - index)];
  return ranks.flatMap((rank) => {
    const section = byRank(rank);
    if (!section) return [];
    const role: SectionRole = rank === 0 ? 'organization' : rank === currentRank ? 'current' : 'earlier';
    return [{ ...section, role }];
  });
}

function buildSection(section: SectionConfig & { role: SectionRole }, payload: FormDataPayload): FormSection {
  const readOnly = section.fields.filter(isReadOnly).map((field) => readOnlyItem(field, payload));
  const entries = section.fields
    .filter((field) => !isReadOnly(field))
    .map((field) => buildEntry(field, payload.prefill[field.name] ?? null, payload.lastGiven?.[field.name]));
  return {
    rank: section.rank,
    title: section.title,
    description: section.description,
    role: section.role,
    readOnly,
    entries,
  };
}

function isReadOnly(field: FieldConfig): boolean {
  return field.readOnly === true || field.type === 'readonly';
}

/** Identity always comes from the payload's contact, never from prefill or a draft. */
function readOnlyItem(field: FieldConfig, payload: FormDataPayload): ReadOnlyItem {
  if (field.name === CURRENT_STAGE_FIELD_NAME) return { field, text: payload.currentStage.label };
  const identity = IDENTITY_FIELD_NAMES.find((name) => name === field.name);
  if (identity) return { field, text: payload.contact[identity] ?? '' };
  return {
    field,
    text: formatValue(payload.prefill[field.name], field, {
      ...formatContextOf(payload.valueFormat),
      options: payload.options[field.name],
    }),
  };
}

export function buildEntry(field: FieldConfig, given: FieldValue, lastGiven?: string): FieldEntry {
  // Asked afresh each time: whatever an older payload or the CRM holds, the form starts empty.
  const prefill = field.neverPrefilled ? null : given;
  const dated = prefill === null ? null : (lastGiven ?? null);
  switch (field.type) {
    case 'text':
      return {
        ...entryOf(
          'text',
          field,
          textOf(prefill),
          draftText,
          [textValidator(field, textOf(prefill))],
          submitText,
          dated,
        ),
        // Text longer than a CRM String field is a Memo: a textarea.
        multiline: (field.maxLength ?? 0) > DEFAULT_TEXT_MAX_LENGTH,
      };
    case 'number':
    case 'currency':
    case 'percent': {
      const validator = numberValidator({ ...field, type: field.type }, textOf(prefill));
      return entryOf(field.type, field, textOf(prefill), draftText, [validator], parseNumberText, dated);
    }
    case 'date':
      return entryOf(
        'date',
        field,
        dateOf(prefill),
        draftText,
        [dateValidator(field, dateOf(prefill))],
        submitChoice,
        dated,
      );
    case 'boolean':
      return entryOf('boolean', field, booleanOf(prefill), draftBoolean, [], (value) => value, dated);
    case 'select':
      return entryOf('select', field, textOf(prefill), draftText, [], submitChoice, dated);
    case 'multiselect': {
      const initial = prefill === null ? [] : multiValues(prefill);
      return entryOf('multiselect', field, initial, draftList, [], submitList, dated);
    }
    case 'file':
      return entryOf('file', field, fileOf(prefill), draftFile, [], (value) => value, dated);
    case 'readonly':
      throw new Error(`Field ${field.name} is read-only and has no control`);
  }
}

function entryOf<K extends FieldType, V>(
  kind: K,
  field: FieldConfig,
  initial: V,
  fromDraft: (value: FieldValue) => V | undefined,
  validators: ValidatorFn[],
  toSubmit: (value: V) => FieldValue,
  lastGiven: string | null,
): EntryOf<K, V> {
  const control = new FormControl<V>(initial, { nonNullable: true, validators });
  const prefilled = toSubmit(initial);
  return {
    kind,
    field,
    control,
    state: trackControl(control),
    restore: (drafted) => {
      const value = fromDraft(drafted);
      if (value !== undefined) control.setValue(value);
    },
    differsFromPrefill: (drafted) => {
      const value = fromDraft(drafted);
      return value !== undefined && !sameValue(value, control.defaultValue);
    },
    matches: (drafted) => {
      const value = fromDraft(drafted);
      return value !== undefined && sameValue(value, control.value);
    },
    submitValue: () => toSubmit(control.value),
    prefilled: isEmptyAnswer(prefilled) ? null : prefilled,
    lastGiven: isEmptyAnswer(prefilled) ? null : lastGiven,
  };
}

/**
 * Reactive forms keep value and errors outside signals; this mirrors them into one so OnPush,
 * zoneless templates update. The subscription lives exactly as long as the control does.
 */
function trackControl<V>(control: FormControl<V>): Signal<ControlState<V>> {
  const snapshot = (): ControlState<V> => ({
    value: control.value,
    errors: control.errors,
    touched: control.touched,
  });
  const state = signal(snapshot());
  control.events.subscribe(() => state.set(snapshot()));
  return state.asReadonly();
}

// Prefill and draft values into control values -------------------------------------------------

function textOf(value: FieldValue): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** The CRM may answer a date as "YYYY-MM-DD HH:MM:SS"; the date input wants the day only. */
function dateOf(value: FieldValue): string {
  const text = textOf(value);
  return /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : '';
}

function booleanOf(value: FieldValue): boolean | null {
  if (value === true || value === 1 || value === '1' || value === 'true') return true;
  if (value === false || value === 0 || value === '0' || value === 'false') return false;
  return null;
}

/** The receipt /api/upload gave a new file stays with it (drafts included): submit needs it. */
function fileOf(value: FieldValue): FileValue | null {
  if (isFileValue(value)) {
    return {
      id: value.id,
      ...(value.file_name ? { file_name: value.file_name } : {}),
      ...(value.receipt ? { receipt: value.receipt } : {}),
    };
  }
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? { id: value } : null;
}

function draftText(value: FieldValue): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function draftBoolean(value: FieldValue): boolean | null | undefined {
  return typeof value === 'boolean' || value === null ? value : undefined;
}

function draftList(value: FieldValue): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}

function draftFile(value: FieldValue): FileValue | null | undefined {
  if (value === null) return null;
  return isFileValue(value) ? fileOf(value) : undefined;
}

// Draft values ------------------------------------------------------------------------------------

/** The controls' values as they stand, for the browser's draft: what was typed, valid or not. */
export function draftValuesOf(form: CheckInForm): FieldValues {
  return form.group.getRawValue();
}

/**
 * Puts a draft's values back into the form. Only fields the form has, with a value of the right
 * shape, are taken: identity and read-only fields have no control, so a draft can never set them.
 * A field already changed on this page keeps its answer; the labels of those kept are returned.
 */
export function restoreDraftValues(form: CheckInForm, values: FieldValues): string[] {
  const kept: string[] = [];
  for (const entry of form.entries) {
    if (!(entry.field.name in values)) continue;
    const drafted = values[entry.field.name] ?? null;
    if (!sameAnswer(entry.submitValue(), entry.prefilled)) {
      if (entry.differsFromPrefill(drafted) && !entry.matches(drafted)) kept.push(entry.field.label);
      continue;
    }
    entry.restore(drafted);
  }
  form.group.markAsDirty();
  return kept;
}

/** True when the draft holds an answer that differs from what the form was prefilled with. */
export function draftDiffersFrom(form: CheckInForm, values: FieldValues): boolean {
  return form.entries.some(
    (entry) => entry.field.name in values && entry.differsFromPrefill(values[entry.field.name] ?? null),
  );
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

// Submit values -----------------------------------------------------------------------------------

function submitText(value: string): FieldValue {
  return value.trim() || null;
}

function submitChoice(value: string): FieldValue {
  return value || null;
}

function submitList(value: string[]): FieldValue {
  return value.length > 0 ? [...value] : null;
}

/** Same answer: multiselect choices in any order, a file by its id. */
export function sameAnswer(a: FieldValue, b: FieldValue): boolean {
  if (isEmptyAnswer(a) || isEmptyAnswer(b)) return isEmptyAnswer(a) && isEmptyAnswer(b);
  if (Array.isArray(a) && Array.isArray(b)) return sameValue([...a].sort(), [...b].sort());
  if (isFileValue(a) && isFileValue(b)) return a.id === b.id;
  return sameValue(a, b);
}

/** added: a first answer; changed: another answer; cleared: a prefilled answer taken away. */
export type ChangeKind = 'added' | 'changed' | 'cleared';

export interface AnswerChange {
  readonly entry: FieldEntry;
  readonly section: FormSection;
  readonly kind: ChangeKind;
  readonly before: FieldValue;
  readonly after: FieldValue;
}

/**
 * What this check-in records: every answer that differs from what the form was prefilled with,
 * in the form's order. A field that is never prefilled starts empty, so answering it is a change.
 */
export function changesOf(form: CheckInForm): AnswerChange[] {
  return form.sections.flatMap((section) =>
    section.entries.flatMap((entry): AnswerChange[] => {
      const after = entry.submitValue();
      const before = entry.prefilled;
      if (sameAnswer(before, after)) return [];
      const kind: ChangeKind = before === null ? 'added' : isEmptyAnswer(after) ? 'cleared' : 'changed';
      return [{ entry, section, kind, before, after: isEmptyAnswer(after) ? null : after }];
    }),
  );
}

/**
 * The values /api/submit takes: only the answers that changed (a cleared one as null, which the
 * server records as cleared), keyed by form-side name and typed for the CRM. An untouched form
 * sends {} and still records a check-in: "nothing changed" is an answer too.
 */
export function submitValuesOf(form: CheckInForm): FieldValues {
  const values: FieldValues = {};
  for (const change of changesOf(form)) values[change.entry.field.name] = change.after;
  return values;
}

/** A stable text for a set of values, to tell whether a retry sends the same answers. */
export function fingerprintOf(values: FieldValues): string {
  const sorted = Object.keys(values)
    .sort()
    .map((name) => [name, values[name]]);
  return JSON.stringify(sorted);
}

// Errors ------------------------------------------------------------------------------------------

/** The field's id in the page: labels, the error summary's links and focus all use it. */
export function controlIdOf(field: FieldConfig): string {
  return `field-${field.name}`;
}

export function sectionOfField(form: CheckInForm, name: string): FormSection | undefined {
  return form.sections.find((section) => section.entries.some((entry) => entry.field.name === name));
}
