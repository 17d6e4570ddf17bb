import { ENTITIES } from './entities';
import type { ModelStore } from './store';
import type {
  CrmDataType,
  EntityDef,
  EntityName,
  FieldDef,
  OptionSource,
  PseudoOption,
  StoredRecord,
  TableName,
} from './types';
import { asArray, fail } from './values';

/**
 * The lookups every concern shares: which entities exist, their option lists, the custom fields
 * the acting user may see, and the rows of each entity (the derived ones, RelationshipCache and
 * ActivityContact, built from the stored tables).
 */
export class EntityCatalog {
  /** Custom fields per entity, rebuilt after any write to CustomGroup or CustomField. */
  private readonly customCache = new Map<EntityName, Map<string, FieldDef>>();

  constructor(private readonly store: ModelStore) {}

  entityDef(entity: string, action = '...'): EntityDef {
    const def = (ENTITIES as Record<string, EntityDef | undefined>)[entity];
    if (!def || (def.extension && !this.store.extensionInstalled)) {
      fail(`API (${entity}, ${action}) does not exist (or the extension it belongs to is not enabled).`);
    }
    return def as EntityDef;
  }

  optionsOf(source: OptionSource): PseudoOption[] {
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
        return [...this.store.state.tables[source.table].values()].map((record) => ({
          id: String(record.id),
          name: String(record.fields[source.nameField] ?? ''),
          label: String(record.fields[source.labelField] ?? ''),
        }));
    }
  }

  private optionValues(groupId: number): PseudoOption[] {
    return [...this.store.state.tables.OptionValue.values()]
      .filter((record) => record.fields['option_group_id'] === groupId)
      .map((record) => ({
        id: String(record.fields['value']),
        name: String(record.fields['name'] ?? ''),
        label: String(record.fields['label'] ?? ''),
      }));
  }

  private findBy(table: TableName, field: string, value: unknown): StoredRecord | undefined {
    for (const record of this.store.state.tables[table].values()) {
      if (record.fields[field] === value) return record;
    }
    return undefined;
  }

  /**
   * Active custom fields of active groups extending this entity, keyed `Group.Field`. A user
   * without "access all custom data" sees none: dropped from select and values, invalid in where.
   */
  customFields(def: EntityDef): Map<string, FieldDef> {
    if (!this.store.hasPermission('access all custom data')) return new Map();
    const cached = this.customCache.get(def.name);
    if (cached) return cached;
    const fields = new Map<string, FieldDef>();
    const extendsList = def.customExtends ?? [];
    const tables = this.store.state.tables;
    for (const group of tables.CustomGroup.values()) {
      if (!group.fields['is_active'] || !extendsList.includes(String(group.fields['extends']))) continue;
      for (const field of tables.CustomField.values()) {
        if (field.fields['custom_group_id'] !== group.id || !field.fields['is_active']) continue;
        const key = `${String(group.fields['name'])}.${String(field.fields['name'])}`;
        fields.set(key, customFieldDef(key, field));
      }
    }
    this.customCache.set(def.name, fields);
    return fields;
  }

  /** After a write to CustomGroup or CustomField, or a restore. */
  forgetCustomFields(): void {
    this.customCache.clear();
  }

  records(def: EntityDef): StoredRecord[] {
    if (def.name === 'RelationshipCache') return this.relationshipCache();
    if (def.name === 'CheckinMiddleware') return [];
    return [...this.store.state.tables[def.name].values()];
  }

  /** Both orientations of every relationship, so callers need not care about direction. */
  relationshipCache(): StoredRecord[] {
    const tables = this.store.state.tables;
    const rows: StoredRecord[] = [];
    for (const relationship of tables.Relationship.values()) {
      const type = tables.RelationshipType.get(Number(relationship.fields['relationship_type_id']));
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
  activityContactRows(activity: StoredRecord): StoredRecord[] {
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
  activityContacts(activity: StoredRecord): StoredRecord[] {
    const pairs: Array<[unknown, number]> = [[activity.fields['source_contact_id'], 2]];
    for (const id of asArray(activity.fields['target_contact_id'])) pairs.push([id, 3]);
    for (const id of asArray(activity.fields['assignee_contact_id'])) pairs.push([id, 1]);
    const rows: StoredRecord[] = [];
    for (const [contactId, recordType] of pairs) {
      const contact = this.store.state.tables.Contact.get(Number(contactId));
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

function customFieldDef(key: string, record: StoredRecord): FieldDef {
  const f = record.fields;
  const dataType = String(f['data_type']) as CrmDataType;
  const optionGroupId = f['option_group_id'];
  // A Date field with a time format keeps its time of day, as a Timestamp does.
  const withTime = dataType === 'Date' && Number(f['time_format']) > 0;
  return {
    name: key,
    type: withTime ? 'Timestamp' : dataType,
    customFieldId: record.id,
    ...(Number(f['serialize']) > 0 ? { serialize: true } : {}),
    ...(dataType === 'File' ? { fk: 'File' as const } : {}),
    ...(typeof optionGroupId === 'number'
      ? { options: { kind: 'optionGroupId' as const, id: optionGroupId } }
      : {}),
  };
}
