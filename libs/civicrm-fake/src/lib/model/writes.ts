import { CreateRules } from './create-rules';
import type { EntityCatalog } from './catalog';
import { ENTITIES } from './entities';
import type { StoredFiles } from './files';
import type { QueryEngine } from './query';
import type { ModelStore } from './store';
import {
  Api4Error,
  type EntityDef,
  type FieldContext,
  type StoredRecord,
  type TableName,
  type CrmRow,
} from './types';
import {
  FILE_DECODED,
  type Params,
  asArray,
  compactTimestamp,
  fail,
  isEmptyValue,
  isPlainObject,
  storedFileName,
} from './values';
import { WrittenValues } from './written-values';

/**
 * APIv4 writes: create, update, delete and save, with the side effects CiviCRM applies. How each
 * value is typed lives in WrittenValues, what each entity derives on create in CreateRules.
 */
export class RecordWriter {
  private readonly written: WrittenValues;
  private readonly rules: CreateRules;

  constructor(
    private readonly store: ModelStore,
    private readonly catalog: EntityCatalog,
    private readonly queries: QueryEngine,
    private readonly files: StoredFiles,
    /** What defaulted fields read (the clock). */
    private readonly fieldContext: FieldContext,
  ) {
    this.written = new WrittenValues(store, catalog);
    this.rules = new CreateRules(store);
  }

  valuesParam(params: Params, name = 'values'): Record<string, unknown> {
    const values = params[name];
    if (values === undefined) return {};
    if (!isPlainObject(values)) return fail(`${name} must be an object keyed by field name`);
    return values;
  }

  create(def: EntityDef, values: Record<string, unknown>): CrmRow {
    this.assertWritable(def);
    const table = def.name as TableName;
    const record: StoredRecord = { id: 0, fields: {}, custom: {} };
    const refused = this.written.applyValues(def, record, values);
    this.rules.beforeCreate(def, record, values);
    for (const field of def.fields) {
      if (field.initial && record.fields[field.name] === undefined) {
        record.fields[field.name] = field.initial(this.fieldContext);
      }
    }
    // 6.14's File.create requires a mime type; 5.81 takes a file without one.
    const required = def.name === 'File' && this.store.is614 ? ['mime_type'] : (def.required ?? []);
    const missing = required.filter((name) => isEmptyValue(record.fields[name]));
    if (missing.length > 0) {
      fail(`Mandatory values missing from Api4 ${def.name}::create: ${missing.join(', ')}`);
    }
    this.rules.placeWeight(
      def,
      record,
      undefined,
      values['weight'] !== undefined && values['weight'] !== null,
    );
    // CiviCRM saves the row first and inserts custom values after: when MySQL refuses one
    // (a 32-bit Int overflow), the row stays, with no custom values at all.
    if (refused.length > 0) record.custom = {};
    record.id = this.store.state.nextIds[table]++;
    record.fields['id'] = record.id;
    this.rules.afterCreate(def, record);
    this.store.state.tables[table].set(record.id, record);
    this.afterWrite(def, record, values);
    if (refused[0] !== undefined) throw new Api4Error(500, refused[0]);
    if (def.name === 'Activity' || def.name === 'File') return this.createAnswer(def, record, values);
    return this.writeResult(def, record, values);
  }

  /**
   * What Activity.create and File.create answer (measured on 6.14 and 5.81): the columns
   * written, dates as `YYYYMMDDhhmmss`, the database-defaulted timestamps and every other key
   * of `values` (custom fields, virtual fields, unknown names) as null.
   */
  private createAnswer(def: EntityDef, record: StoredRecord, values: Record<string, unknown>): CrmRow {
    const row: CrmRow = { id: record.id };
    const given = new Set(Object.keys(values).map((key) => key.split(':')[0] ?? key));
    const answered = new Set(['id']);
    for (const field of def.fields) {
      if (field.extra || field.compute || field.name === 'id') continue;
      const value = record.fields[field.name];
      const derived =
        def.name === 'Activity'
          ? ['activity_date_time', 'status_id', 'priority_id'].includes(field.name)
          : ['uri', 'upload_date', 'created_id'].includes(field.name);
      if (!given.has(field.name) && !derived) continue;
      const optional = def.name === 'File' && field.name !== 'created_id' && !given.has(field.name);
      if (value === undefined || (optional && value === null)) continue;
      row[field.name] = field.type === 'Timestamp' ? compactTimestamp(value) : value;
      answered.add(field.name);
    }
    if (def.name === 'Activity') {
      row['created_date'] = null;
      row['modified_date'] = null;
      answered.add('created_date').add('modified_date');
    }
    for (const key of Object.keys(values)) {
      const base = key.split(':')[0] ?? key;
      if (answered.has(base) || (key.includes(':') && def.fields.some((field) => field.name === base)))
        continue;
      row[key] = null;
    }
    if (def.name === 'File') {
      if (record.fields[FILE_DECODED] === true) {
        // The extension's answer: the name CiviCRM stored, and proof the content was decoded.
        row['file_name'] = storedFileName(record);
        row['checkin_content_decoded'] = true;
      }
    }
    row['custom'] = null;
    row['check_permissions'] = null;
    return row;
  }

  update(def: EntityDef, params: Params): CrmRow[] {
    this.assertWritable(def);
    this.requireWhere(def, 'update', params);
    const values = this.valuesParam(params);
    return this.queries.query(def, params).map((record) => {
      const draft: StoredRecord = structuredClone(record);
      const refused = this.written.applyValues(def, draft, values);
      if (refused[0] !== undefined) throw new Api4Error(500, refused[0]);
      if ('modified_date' in draft.fields) draft.fields['modified_date'] = this.store.localNow();
      const weightGiven = values['weight'] !== undefined && values['weight'] !== null;
      if (weightGiven)
        this.rules.placeWeight(def, draft, Math.round(Number(record.fields['weight']) || 0), true);
      const replacedFiles = this.store.is614 ? this.replacedFiles(def, record, draft) : [];
      // Only commit once every value was accepted: a failed update changes nothing.
      Object.assign(record, draft);
      // Since 6.4, a file a File field no longer holds is deleted unless something else holds it.
      for (const fileId of replacedFiles) {
        if (!this.files.fileOwner(fileId)) this.store.state.tables.File.delete(fileId);
      }
      this.afterWrite(def, record, values);
      return this.writeResult(def, record, values);
    });
  }

  delete(def: EntityDef, params: Params): CrmRow[] {
    this.assertWritable(def);
    this.requireWhere(def, 'delete', params);
    const useTrash = params['useTrash'] !== false;
    return this.queries.query(def, params).map((record) => {
      if (def.name === 'Contact' && useTrash) {
        record.fields['is_deleted'] = true;
      } else {
        this.store.state.tables[def.name as TableName].delete(record.id);
      }
      this.afterWrite(def, record, {});
      return { id: record.id };
    });
  }

  /** Upsert: a record with `id` (or matching `match` fields) is updated, others created. */
  save(def: EntityDef, params: Params): CrmRow[] {
    const records = params['records'];
    if (!Array.isArray(records)) return fail('records must be an array');
    const defaults = this.valuesParam(params, 'defaults');
    const match = params['match'];
    if (match !== undefined && (!Array.isArray(match) || match.some((key) => typeof key !== 'string'))) {
      fail('match must be an array of field names');
    }
    return records.map((item) => {
      if (!isPlainObject(item)) return fail('Each record must be an object');
      const values = { ...defaults, ...item };
      const where = this.saveTarget(def, values, (match as string[] | undefined) ?? []);
      if (!where) return this.create(def, values);
      const rest = { ...values };
      delete rest['id'];
      const updated = this.update(def, { where, values: rest });
      return updated[0] ?? this.create(def, values);
    });
  }

  private saveTarget(
    def: EntityDef,
    values: Record<string, unknown>,
    match: string[],
  ): unknown[] | undefined {
    if (values['id'] !== undefined && values['id'] !== null) return [['id', '=', values['id']]];
    if (match.length === 0) return undefined;
    const where = match.map((key) => [key, '=', values[key]]);
    return this.queries.query(def, { where, limit: 1 }).length > 0 ? where : undefined;
  }

  private assertWritable(def: EntityDef): void {
    if (def.name === 'RelationshipCache' || def.name === 'CheckinMiddleware')
      fail(`${def.name} is read-only`);
  }

  private requireWhere(def: EntityDef, action: string, params: Params): void {
    const where = params['where'];
    if (!Array.isArray(where) || where.length === 0) {
      fail(`Cannot ${action} ${def.name} with no "where" parameter specified`);
    }
  }

  /** File ids the draft's File custom fields no longer hold. */
  private replacedFiles(def: EntityDef, record: StoredRecord, draft: StoredRecord): number[] {
    const replaced: number[] = [];
    for (const field of this.catalog.customFields(def).values()) {
      if (field.type !== 'File' || field.customFieldId === undefined) continue;
      const key = String(field.customFieldId);
      const kept = new Set(asArray(draft.custom[key]).map(Number));
      for (const fileId of asArray(record.custom[key]).map(Number))
        if (!kept.has(fileId)) replaced.push(fileId);
    }
    return replaced;
  }

  private afterWrite(def: EntityDef, record: StoredRecord, values: Record<string, unknown>): void {
    if (def.name === 'CustomGroup' || def.name === 'CustomField') this.catalog.forgetCustomFields();
    if (def.name === 'Contact') {
      this.contactNames(record, values);
      if (values['email_primary.email'] !== undefined)
        this.writePrimaryEmail(record, values['email_primary.email']);
    }
    if (def.name === 'Email' && this.store.state.tables.Email.has(record.id)) this.linkPrimaryEmail(record);
  }

  private contactNames(record: StoredRecord, values: Record<string, unknown>): void {
    const f = record.fields;
    const first = typeof f['first_name'] === 'string' ? f['first_name'] : '';
    const last = typeof f['last_name'] === 'string' ? f['last_name'] : '';
    const isPerson = f['contact_type'] === 'Individual';
    if (values['display_name'] === undefined) {
      f['display_name'] = isPerson
        ? `${first} ${last}`.trim()
        : (f['organization_name'] ?? f['display_name'] ?? null);
    }
    if (values['sort_name'] === undefined) {
      f['sort_name'] = isPerson ? [last, first].filter(Boolean).join(', ') : f['display_name'];
    }
  }

  private writePrimaryEmail(contact: StoredRecord, email: unknown): void {
    const text = this.written.coerceScalar({ name: 'email', type: 'String' }, email, 'email_primary.email');
    const existing = this.store.state.tables.Email.get(Number(contact.fields['email_primary']));
    if (existing) {
      existing.fields['email'] = text;
      return;
    }
    if (text === null) return;
    this.create(ENTITIES.Email, { contact_id: contact.id, email: text, is_primary: true });
  }

  private linkPrimaryEmail(email: StoredRecord): void {
    const contact = this.store.state.tables.Contact.get(Number(email.fields['contact_id']));
    if (!contact) return;
    if (email.fields['is_primary'] === true || contact.fields['email_primary'] == null) {
      contact.fields['email_primary'] = email.id;
      email.fields['is_primary'] = true;
    }
  }

  /** What create/update answer: the record's columns plus every key that was written. */
  private writeResult(def: EntityDef, record: StoredRecord, values: Record<string, unknown>): CrmRow {
    const row: CrmRow = {};
    for (const field of def.fields) {
      if (!field.compute) row[field.name] = record.fields[field.name] ?? null;
    }
    for (const key of Object.keys(values)) {
      if (key in row) continue;
      const resolved = this.queries.resolve(def, key);
      row[key] = resolved ? resolved.get(record) : values[key];
    }
    return row;
  }
}
