import { decodeHtmlOnce } from './html-text';
import { Inject, Injectable } from '@nestjs/common';
import type { ContactSummary, RelationshipTypeSummary } from '@checkin/contract';
import { type Api4Params, CRM_CLIENT, type CrmClient, type CrmRow } from './crm-client';
import { RELATIONSHIP_TYPE_FIELDS } from './crm-names';
import { checkRows } from './crm-rows';

const GROUP_SELECT = ['id', 'name', 'title', 'extends', 'is_active'];
const FIELD_SELECT = ['id', 'custom_group_id', 'name', 'label', 'data_type', 'is_active'];

/** A custom field as CiviCRM describes it, keyed by `Group.Field`. */
export interface CustomFieldMetadata {
  id: number;
  crmName: string;
  group: string;
  name: string;
  label: string;
  dataType: string;
  htmlType: string;
  optionGroupId: number | null;
  multiple: boolean;
  /** A Date field that keeps a time of day (CiviCRM's time_format set). */
  hasTime?: boolean;
}

/**
 * A custom group or field row under CiviCRM's own column names: the health diagnostics explain
 * the site's metadata to its administrator in CiviCRM's terms (docs/product-rules.md, "Health").
 */
export type MetadataRow = CrmRow;

/** A custom field with its option group, as the stage diagnostic reads it. */
export interface FieldWithOptionGroup {
  id: number;
  isActive: boolean;
  optionGroupId: number | null;
  optionGroupName: string | null;
}

/** A relationship with both contacts and what its type expects of each side. */
export interface RelationshipWithSides {
  id: number;
  isActive: boolean;
  typeName: string | null;
  contactA: ContactSummary;
  contactB: ContactSummary;
  expectedContactTypeA: string | null;
  expectedContactTypeB: string | null;
}

/** What the extension says of a link key the service holds: the same, different, or none set there. */
export type LinkKeyState = 'match' | 'differs' | 'unset';

/** One active option of an option group. */
export interface GroupOption {
  optionGroupId: number;
  value: string;
  label: string;
  name: string;
}

/**
 * The site itself: the extension's info, a cheap liveness read, the metadata the pages use (the
 * custom fields of the check-in groups, option lists, the currency and locale settings; cached by
 * SiteMetadataCache) and the metadata the diagnostics explain (custom groups and fields, the Stage
 * options, relationship types, a contact's relationships). Rows come back checked; the
 * diagnostics' under CiviCRM's column names, the pages' as typed records.
 */
@Injectable()
export class CrmSiteGateway {
  constructor(@Inject(CRM_CLIENT) private readonly crm: CrmClient) {}

  /** `CheckinMiddleware.info` of the check-in extension; undefined when it answers no row. */
  async extensionInfo(): Promise<CrmRow | undefined> {
    const [row] = checkRows(
      'CheckinMiddleware.info',
      await this.crm.api4('CheckinMiddleware', 'info', {}),
      {},
    );
    return row;
  }

  /**
   * `CheckinMiddleware.verifyKeys`: for each named signature of `message`, whether the extension's
   * own key of that name verifies it (no key is sent). The names are the service's settings.
   */
  async verifyLinkKeys(
    message: string,
    signatures: Readonly<Record<string, string>>,
  ): Promise<Record<string, LinkKeyState>> {
    const [row] = checkRows(
      'CheckinMiddleware.verifyKeys',
      await this.crm.api4('CheckinMiddleware', 'verifyKeys', { message, signatures }),
      {},
    );
    const answer: Record<string, LinkKeyState> = {};
    for (const name of Object.keys(signatures)) {
      const state = row?.[name];
      answer[name] = state === 'match' || state === 'unset' ? state : 'differs';
    }
    return answer;
  }

  /** One authenticated read, so wrong credentials fail like an outage. */
  async ping(): Promise<void> {
    await this.crm.api4('Contact', 'get', { select: ['id'], limit: 1 });
  }

  async customGroupsNamed(names: readonly string[]): Promise<CrmRow[]> {
    return checkGroups(
      await this.crm.api4('CustomGroup', 'get', { select: GROUP_SELECT, where: [['name', 'IN', names]] }),
    );
  }

  /** Every custom group, by id, at most `limit`. */
  async customGroups(limit: number): Promise<CrmRow[]> {
    return checkGroups(
      await this.crm.api4('CustomGroup', 'get', { select: GROUP_SELECT, orderBy: { id: 'ASC' }, limit }),
    );
  }

  async customFieldsOfGroups(groupIds: readonly unknown[]): Promise<CrmRow[]> {
    return checkRows(
      'CustomField.get',
      await getCustomFields(this.crm, {
        select: FIELD_SELECT,
        where: [['custom_group_id', 'IN', groupIds]],
        orderBy: { id: 'ASC' },
      }),
      { id: 'id', name: 'string?', label: 'string?', is_active: 'boolean?' },
    );
  }

  /** The custom field with its option group, or undefined. */
  async customFieldWithOptionGroup(
    groupName: string,
    fieldName: string,
  ): Promise<FieldWithOptionGroup | undefined> {
    const [field] = checkRows(
      'CustomField.get',
      await getCustomFields(this.crm, {
        select: ['id', 'is_active', 'option_group_id', 'option_group_id:name'],
        where: [
          ['custom_group_id:name', '=', groupName],
          ['name', '=', fieldName],
        ],
        limit: 1,
      }),
      { id: 'id', is_active: 'boolean?', 'option_group_id:name': 'string?' },
    );
    return (
      field && {
        id: field['id'] as number,
        isActive: field['is_active'] !== false,
        optionGroupId: asNumber(field['option_group_id']),
        optionGroupName: asText(field['option_group_id:name']),
      }
    );
  }

  /** Every active custom field of the named groups, as the pages use them. */
  async customFieldsOfGroupsNamed(groupNames: readonly string[]): Promise<CustomFieldMetadata[]> {
    const rows = checkRows(
      'CustomField.get',
      await getCustomFields(this.crm, {
        select: [
          'id',
          'name',
          'label',
          'data_type',
          'html_type',
          'option_group_id',
          'serialize',
          'time_format',
          'custom_group_id:name',
        ],
        where: [
          ['custom_group_id:name', 'IN', groupNames],
          ['is_active', '=', true],
        ],
      }),
      {
        id: 'id',
        name: 'string',
        label: 'string?',
        data_type: 'string?',
        html_type: 'string?',
        option_group_id: 'number?',
        'custom_group_id:name': 'string',
      },
    );
    return rows.map((row) => {
      const group = row['custom_group_id:name'] as string;
      const name = row['name'] as string;
      return {
        id: row['id'] as number,
        crmName: `${group}.${name}`,
        group,
        name,
        label: decodeHtmlOnce((row['label'] as string | null | undefined) ?? ''),
        dataType: (row['data_type'] as string | null | undefined) ?? '',
        hasTime: Number(row['time_format'] ?? 0) > 0,
        htmlType: (row['html_type'] as string | null | undefined) ?? '',
        optionGroupId: (row['option_group_id'] as number | null | undefined) ?? null,
        multiple: Boolean(row['serialize']),
      };
    });
  }

  /** The active options of the groups, in weight order. */
  async activeOptionsOfGroups(groupIds: readonly number[]): Promise<GroupOption[]> {
    const rows = checkRows(
      'OptionValue.get',
      await this.crm.api4('OptionValue', 'get', {
        select: ['option_group_id', 'value', 'label', 'name', 'weight'],
        where: [
          ['option_group_id', 'IN', groupIds],
          ['is_active', '=', true],
        ],
        orderBy: { weight: 'ASC' },
      }),
      { option_group_id: 'id', label: 'string?', name: 'string?' },
    );
    return rows.map((row) => ({
      optionGroupId: row['option_group_id'] as number,
      value: String(row['value']),
      label: decodeHtmlOnce((row['label'] as string | null | undefined) ?? ''),
      name: (row['name'] as string | null | undefined) ?? '',
    }));
  }

  /** Domain settings by name (APIv4 Setting.get, which needs administer CiviCRM). */
  async settings(names: readonly string[]): Promise<Map<string, unknown>> {
    const rows = checkRows('Setting.get', await this.crm.api4('Setting', 'get', { select: [...names] }), {
      name: 'string',
    });
    return new Map(rows.map((row) => [row['name'] as string, row['value']]));
  }

  /** Active options of the group by weight. */
  async activeOptions(optionGroupId: number): Promise<CrmRow[]> {
    return checkRows(
      'OptionValue.get',
      await this.crm.api4('OptionValue', 'get', {
        select: ['value', 'label', 'weight'],
        where: [
          ['option_group_id', '=', optionGroupId],
          ['is_active', '=', true],
        ],
        orderBy: { weight: 'ASC' },
      }),
      { label: 'string?' },
    );
  }

  async relationshipTypes(): Promise<RelationshipTypeSummary[]> {
    const rows = checkRows(
      'RelationshipType.get',
      await this.crm.api4('RelationshipType', 'get', {
        select: RELATIONSHIP_TYPE_FIELDS,
        orderBy: { id: 'ASC' },
      }),
      { id: 'id', name_a_b: 'string?', contact_type_a: 'string?', contact_type_b: 'string?' },
    );
    return rows.map((row) => ({
      id: asNumber(row['id']) ?? 0,
      name_a_b: asText(row['name_a_b']) ?? '',
      label_a_b: asText(row['label_a_b']),
      name_b_a: asText(row['name_b_a']),
      label_b_a: asText(row['label_b_a']),
      contactTypeA: asText(row['contact_type_a']),
      contactTypeB: asText(row['contact_type_b']),
      is_active: row['is_active'] !== false,
    }));
  }

  /** The contact's id, type and name, or undefined. */
  async contactSummary(contactId: number): Promise<ContactSummary | undefined> {
    const [row] = checkRows(
      'Contact.get',
      await this.crm.api4('Contact', 'get', {
        select: ['id', 'contact_type', 'display_name'],
        where: [['id', '=', contactId]],
        limit: 1,
      }),
      { id: 'id', contact_type: 'string?', display_name: 'string?' },
    );
    return row && contactSummaryOf(row['id'], row['contact_type'], row['display_name']);
  }

  /** The contact's relationships on either side, by id, at most `limit`, with both contacts' types. */
  async relationshipsOf(contactId: number, limit: number): Promise<RelationshipWithSides[]> {
    const rows = checkRows(
      'Relationship.get',
      await this.crm.api4('Relationship', 'get', {
        select: [
          'id',
          'is_active',
          'contact_id_a',
          'contact_id_b',
          'relationship_type_id.name_a_b',
          'relationship_type_id.contact_type_a',
          'relationship_type_id.contact_type_b',
          'contact_id_a.contact_type',
          'contact_id_a.display_name',
          'contact_id_b.contact_type',
          'contact_id_b.display_name',
        ],
        where: [
          [
            'OR',
            [
              ['contact_id_a', '=', contactId],
              ['contact_id_b', '=', contactId],
            ],
          ],
        ],
        orderBy: { id: 'ASC' },
        limit,
      }),
      { id: 'id', contact_id_a: 'id', contact_id_b: 'id', is_active: 'boolean?' },
    );
    return rows.map((row) => ({
      id: asNumber(row['id']) ?? 0,
      isActive: row['is_active'] !== false,
      typeName: asText(row['relationship_type_id.name_a_b']),
      contactA: joinedContact(row, 'contact_id_a'),
      contactB: joinedContact(row, 'contact_id_b'),
      expectedContactTypeA: asText(row['relationship_type_id.contact_type_a']),
      expectedContactTypeB: asText(row['relationship_type_id.contact_type_b']),
    }));
  }
}

/**
 * The one place `CustomField.get` is written: the pages' metadata, the diagnostics and the
 * deployment self-check (site-checks.ts) differ only in what they select, filter and check. It
 * hands back the call's own promise, so a caller's reads join a batch exactly as a direct call's.
 */
export function getCustomFields(crm: CrmClient, params: Api4Params): Promise<CrmRow[]> {
  return crm.api4('CustomField', 'get', params);
}

function checkGroups(rows: unknown): CrmRow[] {
  return checkRows('CustomGroup.get', rows, {
    id: 'id',
    name: 'string?',
    title: 'string?',
    is_active: 'boolean?',
  });
}

/** One side of a relationship, read through its dot joins (`contact_id_a.contact_type`). */
function joinedContact(row: CrmRow, side: 'contact_id_a' | 'contact_id_b'): ContactSummary {
  return contactSummaryOf(row[side], row[`${side}.contact_type`], row[`${side}.display_name`]);
}

function contactSummaryOf(id: unknown, contactType: unknown, displayName: unknown): ContactSummary {
  return { id: asNumber(id) ?? 0, contactType: asText(contactType), displayName: asText(displayName) };
}

function asNumber(value: unknown): number | null {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : null;
}

function asText(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
