import { Inject, Injectable } from '@nestjs/common';
import type { FieldConfig, FieldValues } from '@checkin/contract';
import { crmNameOf } from '../fields/field-config';
import { CRM_CLIENT, type CrmClient, type CrmRow } from './crm-client';
import { FORM_CONTACT_RELATIONSHIP } from './crm-names';
import { checkRows, malformed } from './crm-rows';
import { fieldReaders, fileJoinsFor, selectFor, valuesOf } from './crm-values';
import { personSide } from './relationship-sides';

const PRIMARY_EMAIL = 'email_primary.email';

export interface PersonIdentity {
  firstName: string;
  lastName: string;
  /** The primary email, null when there is none. */
  email: string | null;
}

export interface OrganizationName {
  id: number;
  name: string;
}

export interface OrganizationRecord {
  id: number;
  name: string;
  /** Contact-bound answers keyed by form-side name; empty ones left out. */
  values: FieldValues;
}

/**
 * Contacts and access: checksum checks and issues, the person's organizations, contact names,
 * an organization's own (contact-bound) answers.
 * The only place their CiviCRM queries are written.
 */
@Injectable()
export class CrmContactsGateway {
  constructor(@Inject(CRM_CLIENT) private readonly crm: CrmClient) {}

  /** Whether `checksum` has the shape of the checksums this CRM issues (no request). */
  hasChecksumShape(checksum: string): boolean {
    return this.crm.checksumShape.test(checksum);
  }

  async validateChecksum(contactId: number, checksum: string): Promise<boolean> {
    const call = 'Contact.validateChecksum';
    const [result] = checkRows(
      call,
      await this.crm.api4('Contact', 'validateChecksum', { contactId, checksum }),
      { valid: 'boolean?' },
    );
    return result?.['valid'] === true;
  }

  /**
   * Organizations tied to the person by an active 'Primary Contact' relationship, ascending.
   * Which side is the person is read from the relationship type (personSide).
   */
  async primaryContactOrganizations(cid: number): Promise<number[]> {
    const rows = checkRows(
      'Relationship.get',
      await this.crm.api4('Relationship', 'get', {
        select: [
          'contact_id_a',
          'contact_id_b',
          'relationship_type_id.contact_type_a',
          'relationship_type_id.contact_type_b',
        ],
        where: [
          ['relationship_type_id.name_a_b', '=', FORM_CONTACT_RELATIONSHIP],
          ['is_active', '=', true],
          [
            'OR',
            [
              ['contact_id_a', '=', cid],
              ['contact_id_b', '=', cid],
            ],
          ],
        ],
      }),
      {
        contact_id_a: 'id',
        contact_id_b: 'id',
        'relationship_type_id.contact_type_a': 'string?',
        'relationship_type_id.contact_type_b': 'string?',
      },
    );
    const organizations = new Set<number>();
    for (const row of rows) {
      const side = personSide(
        row['relationship_type_id.contact_type_a'] as string | null | undefined,
        row['relationship_type_id.contact_type_b'] as string | null | undefined,
      );
      const [person, organization] =
        side === 'b'
          ? [row['contact_id_b'], row['contact_id_a']]
          : [row['contact_id_a'], row['contact_id_b']];
      if (person === cid) organizations.add(organization as number);
    }
    return [...organizations].sort((a, b) => a - b);
  }

  async contactExists(contactId: number): Promise<boolean> {
    const [contact] = checkRows(
      'Contact.get',
      await this.crm.api4('Contact', 'get', {
        select: ['id'],
        where: [['id', '=', contactId]],
        limit: 1,
      }),
      { id: 'id' },
    );
    return contact !== undefined;
  }

  /** A checksum for the contact, valid `ttlHours`. */
  async getChecksum(contactId: number, ttlHours: number): Promise<string> {
    const call = 'Contact.getChecksum';
    const [result] = checkRows(
      call,
      await this.crm.api4('Contact', 'getChecksum', { contactId, ttl: ttlHours }),
      {},
    );
    const checksum = result?.['checksum'];
    if (typeof checksum !== 'string' || checksum === '') throw malformed(call, 'answer has no checksum');
    return checksum;
  }

  /** Contacts' display names by id; a contact CiviCRM does not answer (in the trash) is absent. */
  async displayNames(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = checkRows(
      'Contact.get',
      await this.crm.api4('Contact', 'get', { select: ['id', 'display_name'], where: [['id', 'IN', ids]] }),
      { id: 'id', display_name: 'string?' },
    );
    return new Map(
      rows
        .filter((row) => typeof row['display_name'] === 'string' && row['display_name'] !== '')
        .map((row) => [Number(row['id']), String(row['display_name'])]),
    );
  }

  /** The organizations' names, in the CRM's order; a nameless one is "Organization <id>". */
  async organizationNames(ids: readonly number[]): Promise<OrganizationName[]> {
    const rows = checkRows(
      'Contact.get',
      await this.crm.api4('Contact', 'get', {
        select: ['id', 'display_name', 'organization_name'],
        where: [['id', 'IN', ids]],
      }),
      { id: 'id', display_name: 'string?', organization_name: 'string?' },
    );
    return rows.map((row) => ({
      id: Number(row['id']),
      name: String(row['organization_name'] || row['display_name'] || `Organization ${String(row['id'])}`),
    }));
  }

  /**
   * The organization's name and contact-bound answers, for an owner route (the access guard has
   * already tied the person to it): an empty record when there is no such contact.
   */
  async readOrganization(orgId: number, fields: readonly FieldConfig[]): Promise<OrganizationRecord> {
    const row = await this.organizationRow(orgId, fields, []);
    return row ? organizationRecord(orgId, fields, row) : { id: orgId, name: '', values: {} };
  }

  /** The same for staff, who may name any id: null unless it is an organization's. */
  async findOrganization(orgId: number, fields: readonly FieldConfig[]): Promise<OrganizationRecord | null> {
    const row = await this.organizationRow(orgId, fields, ['contact_type']);
    return row?.['contact_type'] === 'Organization' ? organizationRecord(orgId, fields, row) : null;
  }

  private async organizationRow(
    orgId: number,
    fields: readonly FieldConfig[],
    more: readonly string[],
  ): Promise<CrmRow | undefined> {
    // The File joins of file fields: see crm-values.ts, fileJoinsFor.
    const join = fileJoinsFor(fields, crmNameOf);
    const [row] = checkRows(
      'Contact.get',
      await this.crm.api4('Contact', 'get', {
        select: ['id', 'display_name', 'organization_name', ...selectFor(fields, crmNameOf), ...more],
        ...(join.length > 0 ? { join } : {}),
        where: [['id', '=', orgId]],
        limit: 1,
      }),
      { id: 'id', display_name: 'string?', organization_name: 'string?', contact_type: 'string?' },
    );
    return row;
  }

  /** First and last name, and the primary email through the email_primary join; null when no such contact. */
  async personIdentity(contactId: number): Promise<PersonIdentity | null> {
    const [row] = checkRows(
      'Contact.get',
      await this.crm.api4('Contact', 'get', {
        select: ['first_name', 'last_name', PRIMARY_EMAIL],
        where: [['id', '=', contactId]],
        limit: 1,
      }),
      { first_name: 'string?', last_name: 'string?', [PRIMARY_EMAIL]: 'string?' },
    );
    if (!row) return null;
    const email = row[PRIMARY_EMAIL];
    return {
      firstName: textOrEmpty(row['first_name']),
      lastName: textOrEmpty(row['last_name']),
      email: typeof email === 'string' && email !== '' ? email : null,
    };
  }
}

function organizationRecord(orgId: number, fields: readonly FieldConfig[], row: CrmRow): OrganizationRecord {
  return {
    id: orgId,
    name: String(row['organization_name'] || row['display_name'] || ''),
    values: valuesOf(fieldReaders(fields), row),
  };
}

function textOrEmpty(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
