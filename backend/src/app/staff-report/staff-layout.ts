import type { FieldConfig, FieldType, StageRank } from '@checkin/contract';
import {
  ACTIVITY_CUSTOM_GROUP,
  ACTIVITY_STAGE_FIELD,
  CONTACT_STAGE_FIELD,
  SUBMISSION_ID_FIELD,
} from '../crm/crm-names';
import { CLEARED_FIELDS_FIELD } from '../form/cleared-answers';
import type { CustomFieldMetadata } from '../crm/crm-schema.service';
import { crmNameOf, MATRIX_FIELD_PATTERN, MATRIX_METRICS, SECTIONS } from '../fields/field-config';

/**
 * Which fields the staff report shows, and where. Staff see every custom field the CRM has in
 * the two groups: configured fields in their sections, the stage-5 `Y1_Q<n>_<metric>` fields as
 * a matrix, fields only the CRM knows on the organization (such as the staff list views' Stage)
 * in the organization section, and those it knows on check-ins in an "Other fields" section.
 * Pure, so the placement rules are tested without a CRM.
 */
export interface LayoutSection {
  key: string;
  rank: StageRank | null;
  title: string;
  /** Fields shown as rows; matrix fields are not among them. */
  fields: FieldConfig[];
}

export interface LayoutMatrixRow {
  metric: string;
  label: string;
  type: FieldType;
  /** Q1..Q4; null where neither the configuration nor the CRM has the field. */
  cells: Array<FieldConfig | null>;
}

export interface StaffLayout {
  sections: LayoutSection[];
  /** Belongs to the stage-5 section; empty when no matrix field exists. */
  matrix: LayoutMatrixRow[];
  /** Every activity-side field (rows and matrix cells), for the check-in read. */
  activityFields: FieldConfig[];
  /** Every organization-side field, for the contact read. */
  contactFields: FieldConfig[];
}

export const QUARTERS = ['Q1', 'Q2', 'Q3', 'Q4'] as const;
export const MATRIX_SECTION_RANK: StageRank = 5;
const OTHER_SECTION_KEY = 'other';
const ORGANIZATION_SECTION_TITLE = 'Organization';

/**
 * Fields the report presents elsewhere or not at all: Stage is the current stage and each
 * submission's stage; Submission_ID is the form's idempotency key, noise to staff. The
 * organization's own Stage is for CRM list views and never read by the service (docs/product-rules.md, "CRM names"), so it
 * is not shown beside the derived stage it may disagree with.
 */
const NOT_SHOWN_AS_FIELDS: ReadonlySet<string> = new Set([
  ACTIVITY_STAGE_FIELD,
  SUBMISSION_ID_FIELD,
  CONTACT_STAGE_FIELD,
  // The form's bookkeeping of cleared answers (form/cleared-answers.ts), not an answer itself.
  CLEARED_FIELDS_FIELD,
]);

function sectionKey(rank: StageRank): string {
  return `stage-${rank}`;
}

export function planStaffLayout(metadata: ReadonlyMap<string, CustomFieldMetadata>): StaffLayout {
  const configured = SECTIONS.map((section) => ({
    key: sectionKey(section.rank),
    rank: section.rank,
    title: section.rank === 0 ? ORGANIZATION_SECTION_TITLE : section.title,
    fields: section.fields.filter(isCrmBound),
  }));
  const configuredNames = new Set(configured.flatMap((section) => section.fields.map(crmNameOf)));
  const discovered = [...metadata.values()]
    .filter((meta) => !configuredNames.has(meta.crmName) && !NOT_SHOWN_AS_FIELDS.has(meta.crmName))
    .map(discoveredField);

  const allFields = [...configured.flatMap((section) => section.fields), ...discovered];
  const matrixFields = allFields.filter(isMatrixField);
  const matrixSet = new Set(matrixFields);
  const rowFieldsOf = (fields: FieldConfig[]) => fields.filter((field) => !matrixSet.has(field));

  const discoveredOnContact = discovered.filter((field) => field.crmContactField);
  const sections: LayoutSection[] = configured.map((section) => ({
    ...section,
    fields: rowFieldsOf(section.rank === 0 ? [...section.fields, ...discoveredOnContact] : section.fields),
  }));
  const others = rowFieldsOf(discovered.filter((field) => field.crmField));
  if (others.length > 0) {
    sections.push({ key: OTHER_SECTION_KEY, rank: null, title: 'Other fields', fields: others });
  }
  return {
    sections,
    matrix: matrixRows(matrixFields),
    activityFields: allFields.filter((field) => field.crmField),
    contactFields: allFields.filter((field) => field.crmContactField),
  };
}

/** The form-side field type that renders a CRM custom field best. */
export function fieldTypeFor(
  meta: Pick<CustomFieldMetadata, 'dataType' | 'optionGroupId' | 'multiple'>,
): FieldType {
  switch (meta.dataType) {
    case 'File':
      return 'file';
    case 'Boolean':
      return 'boolean';
    case 'Date':
    case 'Timestamp':
      return 'date';
  }
  if (meta.optionGroupId) return meta.multiple ? 'multiselect' : 'select';
  switch (meta.dataType) {
    case 'Money':
      return 'currency';
    case 'Int':
    case 'Float':
      return 'number';
    default:
      return 'text';
  }
}

/**
 * A field only the CRM knows, named by its CRM name so it can never clash with a configured
 * (dot-free) name. Read-only: the form never writes it.
 */
function discoveredField(meta: CustomFieldMetadata): FieldConfig {
  const onActivity = meta.group === ACTIVITY_CUSTOM_GROUP;
  return {
    name: meta.crmName,
    type: fieldTypeFor(meta),
    label: meta.label || meta.name,
    readOnly: true,
    ...(onActivity ? { crmField: meta.crmName } : { crmContactField: meta.crmName }),
  };
}

function isCrmBound(field: FieldConfig): boolean {
  return Boolean(field.crmField || field.crmContactField);
}

function matrixPosition(field: FieldConfig): { quarter: number; metric: string } | null {
  if (!field.crmField) return null;
  const shortName = field.crmField.slice(field.crmField.indexOf('.') + 1);
  const match = MATRIX_FIELD_PATTERN.exec(shortName);
  return match?.[1] && match[2] ? { quarter: Number(match[1]), metric: match[2] } : null;
}

function isMatrixField(field: FieldConfig): boolean {
  return matrixPosition(field) !== null;
}

/** Configured metrics first, in their order, then any further metric the CRM has, by name. */
function matrixRows(fields: readonly FieldConfig[]): LayoutMatrixRow[] {
  const byMetric = new Map<string, Array<FieldConfig | null>>();
  for (const field of fields) {
    const position = matrixPosition(field);
    if (!position) continue;
    const cells = byMetric.get(position.metric) ?? QUARTERS.map(() => null);
    cells[position.quarter - 1] = field;
    byMetric.set(position.metric, cells);
  }
  const known = MATRIX_METRICS.filter((metric) => byMetric.has(metric.key)).map((metric) => ({
    metric: metric.key,
    label: metric.label,
    type: metric.type,
  }));
  const knownKeys = new Set<string>(known.map((metric) => metric.metric));
  const further = [...byMetric.keys()]
    .filter((key) => !knownKeys.has(key))
    .sort()
    .map((key) => ({ metric: key, label: key, type: firstCellType(byMetric.get(key)) }));
  return [...known, ...further].map((metric) => ({ ...metric, cells: byMetric.get(metric.metric) ?? [] }));
}

function firstCellType(cells: ReadonlyArray<FieldConfig | null> | undefined): FieldType {
  return cells?.find((cell) => cell !== null)?.type ?? 'number';
}
