import { Injectable } from '@nestjs/common';
import type { FieldConfig, FieldValue } from '@checkin/contract';
import type { OwnerAccess } from '../auth/owner-access.service';
import { CrmCheckInsGateway } from '../crm/check-ins.gateway';
import { CrmContactsGateway } from '../crm/contacts.gateway';
import { Errors } from '../errors/app-error';
import { SUBMITTABLE_FIELDS } from '../fields/field-config';
import { FileReceipts } from '../check-ins/file-receipts';
import { buildPrefill } from './prefill';

const FILE_FIELDS: ReadonlyMap<string, FieldConfig> = new Map(
  SUBMITTABLE_FIELDS.filter((field) => field.type === 'file').map((field) => [field.name, field]),
);

/**
 * docs/decisions.md, "Organization access" for file values: a submitted file id must be one this person uploaded for this
 * field of this organization (a valid receipt from /api/upload), or the one the CRM already
 * holds for that field (the form's prefill sent back unchanged: the organization's own value
 * for contact-bound fields, the newest earlier check-in's for activity-bound ones). Anything
 * else is refused with VALIDATION_FAILED naming the fields, before any CRM write. Only values
 * without a valid receipt cost a CRM read, and it runs alongside the option-list read.
 */
@Injectable()
export class SubmittedFiles {
  constructor(
    private readonly receipts: FileReceipts,
    private readonly contacts: CrmContactsGateway,
    private readonly checkIns: CrmCheckInsGateway,
  ) {}

  async assertAllowed(access: OwnerAccess, values: Readonly<Record<string, unknown>>): Promise<void> {
    const unproven = Object.entries(values).flatMap(([name, value]) => {
      const field = FILE_FIELDS.get(name);
      const id = fileIdOf(value);
      if (!field || id === undefined) return [];
      const subject = { contactId: access.contactId, orgId: access.orgId, field: name, fileId: id };
      return this.receipts.verify(subject, (value as { receipt?: unknown }).receipt) ? [] : [{ field, id }];
    });
    if (unproven.length === 0) return;
    const held = await this.heldFileIds(
      access.orgId,
      unproven.map(({ field }) => field),
    );
    const refused = unproven
      .filter(({ field, id }) => held.get(field.name) !== id)
      .map(({ field }) => field.name);
    if (refused.length > 0) {
      throw Errors.validation(
        `These files were not uploaded through this form for this question: ${refused.join(', ')}. Upload them again.`,
        refused,
      );
    }
  }

  /** The file id the CRM holds for each field, exactly as the form would prefill it. */
  private async heldFileIds(orgId: number, fields: readonly FieldConfig[]): Promise<Map<string, number>> {
    const contactFields = fields.filter((field) => field.crmContactField);
    const activityFields = fields.filter((field) => field.crmField);
    const [organization, checkins] = await Promise.all([
      contactFields.length > 0 ? this.contacts.readOrganization(orgId, contactFields) : undefined,
      // With what each check-in cleared: a file answer cleared since is not held any more.
      activityFields.length > 0 ? this.checkIns.list(orgId, activityFields, { cleared: true }) : [],
    ]);
    const prefill = buildPrefill(checkins, organization?.values ?? {}, null);
    const held = new Map<string, number>();
    for (const field of fields) {
      const id = fileIdOf(prefill[field.name]);
      if (id !== undefined) held.set(field.name, id);
    }
    return held;
  }
}

/** The id of a file value ({id, ...}); undefined for empty answers and other shapes. */
function fileIdOf(value: FieldValue | unknown): number | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const id = (value as { id?: unknown }).id;
  return Number.isSafeInteger(id) && (id as number) > 0 ? (id as number) : undefined;
}
