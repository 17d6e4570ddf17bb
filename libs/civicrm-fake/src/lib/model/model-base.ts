import { randomBytes } from 'node:crypto';
import { ENTITIES } from './entities';
import {
  ADMIN_USER,
  ALL_PERMISSIONS,
  type ApiUser,
  type CallContext,
  type CiviCrmModelOptions,
  type CiviCrmVersion,
  type CrmDataType,
  type EntityDef,
  type EntityName,
  type FieldDef,
  type ModelState,
  type OptionSource,
  type PseudoOption,
  type StoredRecord,
  TABLE_NAMES,
  type TableName,
} from './types';
import { asArray, fail, formatInZone } from './values';

/** The model's state and the lookups every concern shares: tables, custom fields, option lists. */
export abstract class ModelBase {
  baseUrl: string;
  readonly civicrmVersion: CiviCrmVersion;
  readonly extensionInstalled: boolean;
  readonly timeZone: string;
  protected state: ModelState;
  protected readonly clock: () => Date;
  /** True while the seed runs: a site set up long ago, whose names predate munging. */
  protected seeding = false;
  /** The call being answered (permissions, the service's marker header). */
  protected context: Required<Pick<CallContext, 'user'>> & CallContext = { user: ADMIN_USER };
  /** Custom fields per entity, rebuilt after any write to CustomGroup or CustomField. */
  protected customCache = new Map<EntityName, Map<string, FieldDef>>();

  constructor(options: CiviCrmModelOptions = {}) {
    this.baseUrl = (options.baseUrl ?? 'http://crm.invalid').replace(/\/+$/, '');
    this.civicrmVersion = options.civicrmVersion ?? '6.14';
    this.extensionInstalled = options.extensionInstalled ?? true;
    this.timeZone = options.timeZone ?? 'UTC';
    // An unknown zone fails here, not on the first dated write.
    formatInZone(new Date(0), this.timeZone);
    this.clock = options.now ?? (() => new Date());
    this.state = emptyState(options.secret ?? randomBytes(16).toString('hex'));
  }

  now(): Date {
    return this.clock();
  }

  /** "Now" as the CRM's wall clock reads it, `YYYY-MM-DD HH:MM:SS`. */
  localNow(): string {
    return formatInZone(this.now(), this.timeZone);
  }

  protected get is614(): boolean {
    return this.civicrmVersion === '6.14';
  }

  /** Whether the acting user holds `permission` (the admin role holds every one). */
  hasPermission(permission: string, user: ApiUser = this.context.user): boolean {
    return user.permissions.includes(ALL_PERMISSIONS) || user.permissions.includes(permission);
  }

  protected entityDef(entity: string, action = '...'): EntityDef {
    const def = (ENTITIES as Record<string, EntityDef | undefined>)[entity];
    if (!def || (def.extension && !this.extensionInstalled)) {
      fail(`API (${entity}, ${action}) does not exist (or the extension it belongs to is not enabled).`);
    }
    return def as EntityDef;
  }

  protected optionsOf(source: OptionSource): PseudoOption[] {
    switch (source.kind) {
      case 'fixed':
        return source.options;
      case 'optionGroup': {
        const group = this.findBy('OptionGroup', 'name', source.name);
        return group ? this.optionValues(group.id) : [];
      }
      case 'optionGroupId':
        return this.optionValues(source.id);
      case 'entity':
        return [...this.state.tables[source.table].values()].map((record) => ({
          id: String(record.id),
          name: String(record.fields[source.nameField] ?? ''),
          label: String(record.fields[source.labelField] ?? ''),
        }));
    }
  }

  protected optionValues(groupId: number): PseudoOption[] {
    return [...this.state.tables.OptionValue.values()]
      .filter((record) => record.fields['option_group_id'] === groupId)
      .map((record) => ({
        id: String(record.fields['value']),
        name: String(record.fields['name'] ?? ''),
        label: String(record.fields['label'] ?? ''),
      }));
  }

  protected findBy(table: TableName, field: string, value: unknown): StoredRecord | undefined {
    for (const record of this.state.tables[table].values()) {
      if (record.fields[field] === value) return record;
    }
    return undefined;
  }

  /**
   * Active custom fields of active groups extending this entity, keyed `Group.Field`. A user
   * without "access all custom data" sees none: dropped from select and values, invalid in where.
   */
  protected customFields(def: EntityDef): Map<string, FieldDef> {
    if (!this.hasPermission('access all custom data')) return new Map();
    const cached = this.customCache.get(def.name);
    if (cached) return cached;
    const fields = new Map<string, FieldDef>();
    const extendsList = def.customExtends ?? [];
    for (const group of this.state.tables.CustomGroup.values()) {
      if (!group.fields['is_active'] || !extendsList.includes(String(group.fields['extends']))) continue;
      for (const field of this.state.tables.CustomField.values()) {
        if (field.fields['custom_group_id'] !== group.id || !field.fields['is_active']) continue;
        const key = `${String(group.fields['name'])}.${String(field.fields['name'])}`;
        fields.set(key, customFieldDef(key, field));
      }
    }
    this.customCache.set(def.name, fields);
    return fields;
  }

  protected records(def: EntityDef): StoredRecord[] {
    if (def.name === 'RelationshipCache') return this.relationshipCache();
    if (def.name === 'CheckinMiddleware') return [];
    return [...this.state.tables[def.name].values()];
  }

  /** Both orientations of every relationship, so callers need not care about direction. */
  protected relationshipCache(): StoredRecord[] {
    const rows: StoredRecord[] = [];
    for (const relationship of this.state.tables.Relationship.values()) {
      const type = this.state.tables.RelationshipType.get(
        Number(relationship.fields['relationship_type_id']),
      );
      const f = relationship.fields;
      const common = {
        relationship_id: relationship.id,
        relationship_type_id: f['relationship_type_id'],
        is_active: f['is_active'],
        start_date: f['start_date'] ?? null,
        end_date: f['end_date'] ?? null,
      };
      const nameAB = type?.fields['name_a_b'] ?? null;
      const nameBA = type?.fields['name_b_a'] ?? null;
      const sides: Array<[number, string, unknown, unknown, unknown, unknown]> = [
        [relationship.id * 2 - 1, 'a_b', f['contact_id_a'], nameAB, f['contact_id_b'], nameBA],
        [relationship.id * 2, 'b_a', f['contact_id_b'], nameBA, f['contact_id_a'], nameAB],
      ];
      for (const [rowId, orientation, near, nearRelation, far, farRelation] of sides) {
        rows.push({
          id: rowId,
          custom: {},
          fields: {
            id: rowId,
            ...common,
            orientation,
            near_contact_id: near,
            near_relation: nearRelation,
            far_contact_id: far,
            far_relation: farRelation,
          },
        });
      }
    }
    return rows;
  }

  /**
   * The activity's ActivityContact rows themselves (id, activity_id, contact_id, record_type_id),
   * in the order activityContacts pairs them; a row's id is stable per activity and contact.
   */
  protected activityContactRows(activity: StoredRecord): StoredRecord[] {
    return this.activityContacts(activity).map((contact, index) => ({
      id: activity.id * 1000 + index + 1,
      fields: {
        activity_id: activity.id,
        contact_id: contact.id,
        record_type_id: contact.fields['record_type_id'],
      },
      custom: {},
    }));
  }

  /** The contacts of an activity as ActivityContact pairs them: source, targets, assignees. */
  protected activityContacts(activity: StoredRecord): StoredRecord[] {
    const pairs: Array<[unknown, number]> = [[activity.fields['source_contact_id'], 2]];
    for (const id of asArray(activity.fields['target_contact_id'])) pairs.push([id, 3]);
    for (const id of asArray(activity.fields['assignee_contact_id'])) pairs.push([id, 1]);
    const rows: StoredRecord[] = [];
    for (const [contactId, recordType] of pairs) {
      const contact = this.state.tables.Contact.get(Number(contactId));
      if (!contact) continue;
      rows.push({
        id: contact.id,
        fields: { ...contact.fields, activity_id: activity.id, record_type_id: recordType },
        custom: contact.custom,
      });
    }
    return rows;
  }
}

// Module helpers

function emptyState(secret: string): ModelState {
  const tables = {} as Record<TableName, Map<number, StoredRecord>>;
  const nextIds = {} as Record<TableName, number>;
  for (const name of TABLE_NAMES) {
    tables[name] = new Map();
    nextIds[name] = 1;
  }
  return { tables, nextIds, fixedChecksums: new Map(), secret };
}

function customFieldDef(key: string, record: StoredRecord): FieldDef {
  const f = record.fields;
  const dataType = String(f['data_type']) as CrmDataType;
  const optionGroupId = f['option_group_id'];
  const dateOnly = dataType === 'Date';
  return {
    name: key,
    type: dateOnly ? 'Date' : dataType,
    customFieldId: record.id,
    ...(Number(f['serialize']) > 0 ? { serialize: true } : {}),
    ...(dataType === 'File' ? { fk: 'File' as const } : {}),
    ...(typeof optionGroupId === 'number'
      ? { options: { kind: 'optionGroupId' as const, id: optionGroupId } }
      : {}),
  };
}
