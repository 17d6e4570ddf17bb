import { Inject, Injectable } from '@nestjs/common';
import { CRM_CLIENT, type CrmClient, type CrmRow } from './crm-client';
import { RELATIONSHIP_TYPE_FIELDS } from './crm-names';
import { checkRows } from './crm-rows';

const GROUP_SELECT = ['id', 'name', 'title', 'extends', 'is_active'];
const FIELD_SELECT = ['id', 'custom_group_id', 'name', 'label', 'data_type', 'is_active'];

/**
 * The site itself: the extension's info, a cheap liveness read, and the metadata the
 * diagnostics explain (custom groups and fields, the Stage options, relationship types, a
 * contact's relationships). Rows come back checked, under CiviCRM's column names.
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
      await this.crm.api4('CustomField', 'get', {
        select: FIELD_SELECT,
        where: [['custom_group_id', 'IN', groupIds]],
        orderBy: { id: 'ASC' },
      }),
      { id: 'id', name: 'string?', label: 'string?', is_active: 'boolean?' },
    );
  }

  /** The custom field with its option group, or undefined. */
  async customFieldWithOptionGroup(groupName: string, fieldName: string): Promise<CrmRow | undefined> {
    const [field] = checkRows(
      'CustomField.get',
      await this.crm.api4('CustomField', 'get', {
        select: ['id', 'is_active', 'option_group_id', 'option_group_id:name'],
        where: [
          ['custom_group_id:name', '=', groupName],
          ['name', '=', fieldName],
        ],
        limit: 1,
      }),
      { id: 'id', is_active: 'boolean?', 'option_group_id:name': 'string?' },
    );
    return field;
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

  async relationshipTypes(): Promise<CrmRow[]> {
    return checkRows(
      'RelationshipType.get',
      await this.crm.api4('RelationshipType', 'get', {
        select: RELATIONSHIP_TYPE_FIELDS,
        orderBy: { id: 'ASC' },
      }),
      { id: 'id', name_a_b: 'string?', contact_type_a: 'string?', contact_type_b: 'string?' },
    );
  }

  /** The contact's id, type and name, or undefined. */
  async contactSummary(contactId: number): Promise<CrmRow | undefined> {
    const [row] = checkRows(
      'Contact.get',
      await this.crm.api4('Contact', 'get', {
        select: ['id', 'contact_type', 'display_name'],
        where: [['id', '=', contactId]],
        limit: 1,
      }),
      { id: 'id', contact_type: 'string?', display_name: 'string?' },
    );
    return row;
  }

  /** The contact's relationships on either side, by id, at most `limit`, with both contacts' types. */
  async relationshipsOf(contactId: number, limit: number): Promise<CrmRow[]> {
    return checkRows(
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
  }
}

function checkGroups(rows: unknown): CrmRow[] {
  return checkRows('CustomGroup.get', rows, {
    id: 'id',
    name: 'string?',
    title: 'string?',
    is_active: 'boolean?',
  });
}
