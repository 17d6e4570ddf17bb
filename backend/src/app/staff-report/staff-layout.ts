import type { FieldConfig, FieldType, StageRank } from '@checkin/contract';
import {
  ACTIVITY_CUSTOM_GROUP,
  ACTIVITY_STAGE_FIELD,
  CLEARED_FIELDS_FIELD,
  CONTACT_STAGE_FIELD,
  SUBMISSION_ID_FIELD,
} from '../crm/crm-names';
import type { CustomFieldMetadata } from '../crm/site-metadata.cache';
import { crmNameOf, SECTIONS } from '../fields/field-config';
import { isMatrixField, type MatrixLayoutRow, matrixRows } from '../check-ins/quarterly-matrix';

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

export interface StaffLayout {
  sections: LayoutSection[];
  /** Belongs to the stage-5 section; empty when no matrix field exists. */
  matrix: MatrixLayoutRow[];
  /** Every activity-side field (rows and matrix cells), for the check-in read. */
  activityFields: FieldConfig[];
  /** Every organization-side field, for the contact read. */
  contactFields: FieldConfig[];
  /** Fields whose values are contact ids (ContactReference): shown by the contact's name. */
  contactReferenceFields: ReadonlySet<string>;
}

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
  // The bookkeeping of cleared answers (check-ins/cleared-answers.ts), not an answer itself.
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
    // A configured field the site disabled (or lacks) has nothing CiviCRM would read for it:
    // not shown (docs/decisions.md, "Disabled fields").
    fields: section.fields.filter((field) => isCrmBound(field) && metadata.has(crmNameOf(field))),
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
    contactReferenceFields: new Set(
      [...metadata.values()]
        .filter((meta) => meta.dataType === 'ContactReference')
        .map((meta) => meta.crmName),
    ),
  };
}

/** The form-side field type that renders a CRM custom field best. */
export function fieldTypeFor(
  meta: Pick<CustomFieldMetadata, 'dataType' | 'optionGroupId' | 'multiple' | 'hasTime'>,
): FieldType {
  switch (meta.dataType) {
    case 'File':
      return 'file';
    case 'Boolean':
      return 'boolean';
    case 'Date':
    case 'Timestamp':
      // A date type shows the calendar day alone: a date with its time shows as CiviCRM wrote it
      // (docs/decisions.md, "Discovered fields on the staff report").
      return meta.hasTime ? 'text' : 'date';
    case 'ContactReference':
      return 'text';
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
