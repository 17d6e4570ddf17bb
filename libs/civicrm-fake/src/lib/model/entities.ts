import {
  type EntityDef,
  type EntityName,
  type FieldDef,
  type OptionSource,
  type PseudoOption,
  type FieldContext,
} from './types';
import { FILE_ENTITY_ID, fileBytes, storedFileName } from './values';

/**
 * The tables: every entity the model knows, its fields, pseudoconstants, actions and the permissions each action needs.
 */

const CRUD = ['get', 'create', 'update', 'delete', 'save'];
export const now = (model: FieldContext) => model.localNow();
export const id: FieldDef = { name: 'id', type: 'Int', readOnly: true };
export const created: FieldDef[] = [
  { name: 'created_date', type: 'Timestamp', readOnly: true, initial: now },
  { name: 'modified_date', type: 'Timestamp', readOnly: true, initial: now },
];
const bool = (name: string, initial?: boolean): FieldDef => ({
  name,
  type: 'Boolean',
  ...(initial === undefined ? {} : { initial: () => initial }),
});
const str = (name: string): FieldDef => ({ name, type: 'String' });
const contactRef = (name: string, extra?: boolean): FieldDef => ({
  name,
  type: 'Int',
  fk: 'Contact',
  ...(extra ? { extra } : {}),
});
const fixedOptions = (...names: string[]): OptionSource => ({
  kind: 'fixed',
  options: names.map((name) => ({ id: name, name, label: name })),
});
const CONTACT_TYPES = fixedOptions('Individual', 'Organization', 'Household');

export const ENTITIES: Record<EntityName, EntityDef> = {
  Contact: {
    name: 'Contact',
    fields: [
      id,
      { name: 'contact_type', type: 'String', options: CONTACT_TYPES },
      str('first_name'),
      str('last_name'),
      str('display_name'),
      str('sort_name'),
      str('organization_name'),
      bool('is_deleted', false),
      { name: 'email_primary', type: 'Int', fk: 'Email' },
      ...created,
    ],
    customExtends: ['Contact', 'Individual', 'Organization', 'Household'],
    hiddenByDefault: ['is_deleted'],
    required: ['contact_type'],
    actions: [...CRUD, 'validateChecksum', 'getChecksum'],
  },
  Email: {
    name: 'Email',
    fields: [
      id,
      contactRef('contact_id'),
      str('email'),
      bool('is_primary', false),
      { name: 'location_type_id', type: 'Int', initial: () => 1 },
    ],
    required: ['contact_id', 'email'],
    actions: CRUD,
  },
  Activity: {
    name: 'Activity',
    fields: [
      id,
      { name: 'activity_type_id', type: 'Int', options: { kind: 'optionGroup', name: 'activity_type' } },
      str('subject'),
      { name: 'details', type: 'Memo' },
      { name: 'activity_date_time', type: 'Timestamp', initial: now },
      {
        name: 'status_id',
        type: 'Int',
        options: { kind: 'optionGroup', name: 'activity_status' },
        initial: () => 2,
      },
      contactRef('source_contact_id', true),
      { ...contactRef('target_contact_id', true), serialize: true, initial: () => [] },
      { ...contactRef('assignee_contact_id', true), serialize: true, initial: () => [] },
      { name: 'priority_id', type: 'Int', initial: () => 2 },
      bool('is_deleted', false),
      bool('is_test', false),
      ...created,
    ],
    customExtends: ['Activity'],
    hiddenByDefault: ['is_deleted', 'is_test'],
    required: ['activity_type_id', 'source_contact_id'],
    actions: CRUD,
  },
  Relationship: {
    name: 'Relationship',
    fields: [
      id,
      contactRef('contact_id_a'),
      contactRef('contact_id_b'),
      {
        name: 'relationship_type_id',
        type: 'Int',
        fk: 'RelationshipType',
        options: {
          kind: 'entity',
          table: 'RelationshipType',
          nameField: 'name_a_b',
          labelField: 'label_a_b',
        },
      },
      bool('is_active', true),
      { name: 'start_date', type: 'Date' },
      { name: 'end_date', type: 'Date' },
      str('description'),
    ],
    customExtends: ['Relationship'],
    required: ['contact_id_a', 'contact_id_b', 'relationship_type_id'],
    actions: CRUD,
  },
  RelationshipType: {
    name: 'RelationshipType',
    fields: [
      id,
      str('name_a_b'),
      str('label_a_b'),
      str('name_b_a'),
      str('label_b_a'),
      str('description'),
      { name: 'contact_type_a', type: 'String', options: CONTACT_TYPES },
      { name: 'contact_type_b', type: 'String', options: CONTACT_TYPES },
      bool('is_active', true),
      bool('is_reserved', false),
    ],
    required: ['name_a_b'],
    actions: CRUD,
  },
  RelationshipCache: {
    name: 'RelationshipCache',
    fields: [
      id,
      { name: 'relationship_id', type: 'Int', fk: 'Relationship' },
      { name: 'relationship_type_id', type: 'Int', fk: 'RelationshipType' },
      str('orientation'),
      contactRef('near_contact_id'),
      str('near_relation'),
      contactRef('far_contact_id'),
      str('far_relation'),
      bool('is_active'),
      { name: 'start_date', type: 'Date' },
      { name: 'end_date', type: 'Date' },
    ],
    actions: ['get'],
  },
  CustomGroup: {
    name: 'CustomGroup',
    fields: [
      id,
      str('name'),
      str('title'),
      str('extends'),
      { name: 'style', type: 'String', initial: () => 'Inline' },
      str('table_name'),
      { name: 'weight', type: 'Int' },
      bool('is_active', true),
    ],
    required: ['name', 'title', 'extends'],
    actions: CRUD,
  },
  CustomField: {
    name: 'CustomField',
    fields: [
      id,
      {
        name: 'custom_group_id',
        type: 'Int',
        fk: 'CustomGroup',
        options: { kind: 'entity', table: 'CustomGroup', nameField: 'name', labelField: 'title' },
      },
      str('name'),
      str('label'),
      { name: 'data_type', type: 'String', initial: () => 'String' },
      { name: 'html_type', type: 'String', initial: () => 'Text' },
      {
        name: 'option_group_id',
        type: 'Int',
        fk: 'OptionGroup',
        options: { kind: 'entity', table: 'OptionGroup', nameField: 'name', labelField: 'title' },
      },
      { name: 'serialize', type: 'Int', initial: () => 0 },
      // 0 or null: a date without a time of day; 1 (12-hour) or 2 (24-hour) with one.
      { name: 'time_format', type: 'Int' },
      str('column_name'),
      { name: 'weight', type: 'Int' },
      { name: 'text_length', type: 'Int' },
      // Date fields: how the date and its time are shown; a time format keeps the time.
      str('date_format'),
      { name: 'time_format', type: 'Int' },
      bool('is_active', true),
    ],
    required: ['custom_group_id', 'name', 'label'],
    actions: CRUD,
  },
  OptionGroup: {
    name: 'OptionGroup',
    fields: [
      id,
      str('name'),
      str('title'),
      str('description'),
      bool('is_active', true),
      bool('is_reserved', false),
    ],
    required: ['name'],
    actions: CRUD,
  },
  OptionValue: {
    name: 'OptionValue',
    fields: [
      id,
      {
        name: 'option_group_id',
        type: 'Int',
        fk: 'OptionGroup',
        options: { kind: 'entity', table: 'OptionGroup', nameField: 'name', labelField: 'title' },
      },
      str('label'),
      str('value'),
      str('name'),
      str('description'),
      { name: 'weight', type: 'Int' },
      bool('is_active', true),
      bool('is_default', false),
    ],
    required: ['option_group_id', 'label'],
    actions: CRUD,
  },
  File: {
    name: 'File',
    fields: [
      id,
      str('mime_type'),
      str('description'),
      // Set by CiviCRM from file_name (a unique name on disk); values cannot set it.
      { name: 'uri', type: 'String', readOnly: true },
      bool('is_public', false),
      { name: 'upload_date', type: 'Timestamp' },
      { name: 'created_id', type: 'Int', fk: 'Contact', readOnly: true },
      {
        // CiviCRM's file_name is the uri without its unique part (CRM_Utils_File::cleanFileName).
        name: 'file_name',
        type: 'String',
        extra: true,
        compute: (record) => storedFileName(record),
      },
      {
        name: 'url',
        type: 'String',
        extra: true,
        readOnly: true,
        compute: (record, model) => model.api4FileUrl(record.id, record.fields[FILE_ENTITY_ID]),
      },
      {
        // 6.14 reads the stored bytes back as text; 5.81 has no such field.
        name: 'content',
        type: 'String',
        extra: true,
        since614: true,
        compute: (record) => (record.fields['uri'] ? fileBytes(record).toString('utf8') : null),
      },
    ],
    actions: CRUD,
  },
  CheckinMiddleware: {
    name: 'CheckinMiddleware',
    fields: [],
    extension: true,
    actions: ['info', 'verifyKeys'],
  },
};

/** Top-level params each action accepts; anything else is a 500, as in CiviCRM. */
export const ACTION_PARAMS: Record<string, readonly string[]> = {
  get: ['select', 'join', 'where', 'orderBy', 'limit', 'offset'],
  create: ['values', 'reload'],
  update: ['values', 'where', 'orderBy', 'limit', 'offset', 'reload'],
  delete: ['where', 'orderBy', 'limit', 'offset', 'useTrash'],
  save: ['records', 'defaults', 'match', 'reload'],
  validateChecksum: ['contactId', 'checksum'],
  getChecksum: ['contactId', 'ttl'],
  info: [],
  verifyKeys: ['message', 'signatures'],
  'Setting.get': ['select', 'domainId'],
  'Setting.set': ['values', 'domainId'],
};
export const COMMON_PARAMS = ['checkPermissions', 'debug', 'language'];
/** Real APIv4 params this model cannot evaluate: refused loudly rather than ignored. */
export const UNSUPPORTED_PARAMS = new Set(['groupBy', 'having', 'chain', 'translationMode']);

type PermissionNeed = string | readonly string[];
export const ACCESS = 'access CiviCRM';

/**
 * CRM_Core_Permission::getEntityActionPermissions for the modelled entities: every entry is
 * needed; an inner list means any one of it. Reads of contacts and relationships are governed by
 * ACLs instead (see aclAllows).
 */
export function requiredPermissions(entity: EntityName, action: string): PermissionNeed[] {
  const read = action === 'get';
  switch (entity) {
    case 'Contact':
      if (action === 'getChecksum') return ['administer CiviCRM'];
      if (action === 'validateChecksum' || read) return [];
      if (action === 'create') return [ACCESS, 'add contacts'];
      if (action === 'delete') return [ACCESS, 'delete contacts'];
      return [ACCESS, 'edit all contacts'];
    case 'Email':
    case 'Relationship':
    case 'RelationshipCache':
      return read ? [] : [ACCESS, 'edit all contacts'];
    case 'RelationshipType':
      return read ? [ACCESS] : ['administer CiviCRM'];
    case 'Activity':
      if (read) return [ACCESS];
      return action === 'delete' ? [ACCESS, 'delete activities'] : [ACCESS, 'view all activities'];
    case 'CustomGroup':
    case 'CustomField':
      return read ? [[ACCESS, 'access all custom data']] : ['administer CiviCRM data'];
    case 'OptionGroup':
    case 'OptionValue':
      return read ? [ACCESS] : [ACCESS, ['administer CiviCRM', 'manage event profiles']];
    case 'File':
      return [ACCESS, 'access uploaded files'];
    case 'CheckinMiddleware':
      return [ACCESS];
  }
}

/** The record types of ActivityContact (option group activity_contacts). */
const ACTIVITY_CONTACT_TYPES: PseudoOption[] = [
  { id: '1', name: 'Activity Assignees', label: 'Activity Assignees' },
  { id: '2', name: 'Activity Source', label: 'Activity Source' },
  { id: '3', name: 'Activity Targets', label: 'Activity Targets' },
];

/**
 * ActivityContact as an explicit join target (`["ActivityContact AS tgt", "INNER",
 * ["tgt.activity_id", "=", "id"], ...]`): one row per contact of an activity and role.
 */
export const ACTIVITY_CONTACT_ROW_DEF: EntityDef = {
  // The model offers ActivityContact only as a join target, never as an API, so it has no
  // EntityName of its own; it has no custom fields (no customExtends) whatever its name keys.
  name: 'Activity',
  fields: [
    { name: 'id', type: 'Int', readOnly: true },
    { name: 'activity_id', type: 'Int', fk: 'Activity' },
    { name: 'contact_id', type: 'Int', fk: 'Contact' },
    { name: 'record_type_id', type: 'Int', options: { kind: 'fixed', options: ACTIVITY_CONTACT_TYPES } },
  ],
  actions: [],
};

/** A Contact reached through the ActivityContact bridge: the contact plus the bridge's columns. */
export const ACTIVITY_CONTACT_DEF: EntityDef = {
  ...ENTITIES.Contact,
  fields: [
    ...ENTITIES.Contact.fields,
    { name: 'activity_id', type: 'Int', fk: 'Activity' },
    { name: 'record_type_id', type: 'Int', options: { kind: 'fixed', options: ACTIVITY_CONTACT_TYPES } },
  ],
};
