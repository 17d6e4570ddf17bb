import { randomBytes } from 'node:crypto';
import type { EntityCatalog } from './catalog';
import { ENTITIES } from './entities';
import type { StoredFiles } from './files';
import type { QueryEngine } from './query';
import type { ModelStore } from './store';
import {
  Api4Error,
  type EntityDef,
  type FieldContext,
  type FieldDef,
  type StoredRecord,
  type TableName,
  type CrmRow,
} from './types';
import {
  DB_ERROR,
  FILE_BYTES,
  FILE_DECODED,
  type Params,
  asArray,
  compactTimestamp,
  fail,
  isEmptyValue,
  isInt32,
  isPlainObject,
  makeFileName,
  munge,
  newWeight,
  phpFloat,
  roundMoney,
  storedFileName,
  writtenDate,
} from './values';

/** APIv4 writes: create, update, delete and save, with the typing, defaults and side effects CiviCRM applies. */
export class RecordWriter {
  constructor(
    private readonly store: ModelStore,
    private readonly catalog: EntityCatalog,
    private readonly queries: QueryEngine,
    private readonly files: StoredFiles,
    /** What defaulted fields read (the clock). */
    private readonly fieldContext: FieldContext,
  ) {}

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
    const refused = this.applyValues(def, record, values);
    this.beforeCreate(def, record, values);
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
    this.placeWeight(def, record, undefined, values['weight'] !== undefined && values['weight'] !== null);
    // CiviCRM saves the row first and inserts custom values after: when MySQL refuses one
    // (a 32-bit Int overflow), the row stays, with no custom values at all.
    if (refused.length > 0) record.custom = {};
    record.id = this.store.state.nextIds[table]++;
    record.fields['id'] = record.id;
    this.afterCreate(def, record);
    this.store.state.tables[table].set(record.id, record);
    this.afterWrite(def, record, values);
    if (refused[0] !== undefined) throw new Api4Error(500, refused[0]);
    if (def.name === 'Activity' || def.name === 'File') return this.createAnswer(def, record, values);
    return this.writeResult(def, record, values);
  }

  /** Columns CiviCRM derives from the new id. */
  private afterCreate(def: EntityDef, record: StoredRecord): void {
    const f = record.fields;
    if (def.name === 'CustomGroup' && f['table_name'] === undefined) {
      f['table_name'] =
        `civicrm_value_${munge(String(f['title'] ?? f['name'] ?? ''), 13).toLowerCase()}_${record.id}`;
    }
    if (def.name === 'CustomField' && f['column_name'] === undefined) {
      f['column_name'] = `${munge(String(f['label'] ?? f['name'] ?? ''), 32).toLowerCase()}_${record.id}`;
    }
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

  /**
   * CRM_Utils_Weight::updateOtherWeights for option values and custom fields: a weight past the
   * group's highest lands just after it, a taken weight moves the others along.
   */
  private placeWeight(
    def: EntityDef,
    record: StoredRecord,
    oldWeight: number | undefined,
    given: boolean,
  ): void {
    const groupField =
      def.name === 'OptionValue'
        ? 'option_group_id'
        : def.name === 'CustomField'
          ? 'custom_group_id'
          : undefined;
    if (!groupField) return;
    const siblings = [...this.store.state.tables[def.name as TableName].values()].filter(
      (other) => other.fields[groupField] === record.fields[groupField],
    );
    const weightOf = (other: StoredRecord) => Math.round(Number(other.fields['weight']) || 0);
    const highest = Math.max(0, ...siblings.map(weightOf));
    if (!given) {
      if (oldWeight === undefined) record.fields['weight'] = highest + 1;
      return;
    }
    // The seed's weights stand as given: an administrator reordered them long ago.
    if (this.store.seeding) return;
    let weight = Math.trunc(Number(record.fields['weight']) || 0);
    const max = highest || 1;
    if (weight > max) {
      const calculated = newWeight(siblings.map(weightOf));
      if (calculated > max) {
        record.fields['weight'] = calculated;
        return;
      }
      weight = max;
      if (oldWeight === undefined) {
        record.fields['weight'] = weight + 1;
        return;
      }
    } else if (weight < 1) {
      weight = 1;
    }
    record.fields['weight'] = weight;
    if (oldWeight === weight || !siblings.some((other) => weightOf(other) === weight)) return;
    for (const other of siblings) {
      const current = weightOf(other);
      if (oldWeight === undefined) {
        if (current >= weight) other.fields['weight'] = current + 1;
      } else if (weight > oldWeight) {
        if (current > oldWeight && current <= weight) other.fields['weight'] = current - 1;
      } else if (current >= weight && current < oldWeight) {
        other.fields['weight'] = current + 1;
      }
    }
  }

  update(def: EntityDef, params: Params): CrmRow[] {
    this.assertWritable(def);
    this.requireWhere(def, 'update', params);
    const values = this.valuesParam(params);
    return this.queries.query(def, params).map((record) => {
      const draft: StoredRecord = structuredClone(record);
      const refused = this.applyValues(def, draft, values);
      if (refused[0] !== undefined) throw new Api4Error(500, refused[0]);
      if ('modified_date' in draft.fields) draft.fields['modified_date'] = this.store.localNow();
      const weightGiven = values['weight'] !== undefined && values['weight'] !== null;
      if (weightGiven) this.placeWeight(def, draft, Math.round(Number(record.fields['weight']) || 0), true);
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

  /**
   * Validates and stores `values` on a record; unknown keys, custom ones included, are ignored
   * as in CiviCRM. Returns why custom values were refused (a type error, a 32-bit Int overflow
   * MySQL refuses): the caller decides what was saved before the refusal.
   */
  private applyValues(def: EntityDef, record: StoredRecord, values: Record<string, unknown>): string[] {
    const customs = this.catalog.customFields(def);
    const refused: string[] = [];
    for (const [key, raw] of Object.entries(values)) {
      if (key === 'id' || (def.name === 'Contact' && key === 'email_primary.email')) continue;
      const colon = key.lastIndexOf(':');
      const path = colon >= 0 ? key.slice(0, colon) : key;
      const suffix = colon >= 0 ? key.slice(colon + 1) : undefined;
      const custom = customs.get(path);
      const field = custom ?? def.fields.find((candidate) => candidate.name === path);
      if (!field || field.readOnly || field.compute) continue;
      const value = suffix === undefined ? raw : this.optionInput(field, suffix, raw, key);
      let stored: unknown;
      try {
        stored = this.coerce(field, value, key);
      } catch (error) {
        // Custom values are checked when they are inserted, after the row: the caller decides.
        if (!custom || !(error instanceof Api4Error)) throw error;
        refused.push(error.message);
        continue;
      }
      if (custom && field.type === 'Int' && asArray(stored).some((item) => !isInt32(item))) {
        refused.push(DB_ERROR);
        continue;
      }
      // Custom option values are not checked: CiviCRM stores an unknown option as sent.
      if (!custom || field.type === 'File') this.checkReferences(field, stored, key);
      if (custom?.customFieldId !== undefined) record.custom[String(custom.customFieldId)] = stored;
      else record.fields[field.name] = stored;
      if (custom && field.type === 'File' && !this.store.is614) this.markAttached(stored);
    }
    return refused;
  }

  /** `field:name` / `field:label` in values: the option's stored value. */
  private optionInput(field: FieldDef, suffix: string, raw: unknown, key: string): unknown {
    if ((suffix !== 'name' && suffix !== 'label') || !field.options) {
      return fail(`Unknown field "${key}"`);
    }
    const options = this.catalog.optionsOf(field.options);
    const lookup = (item: unknown) =>
      options.find((option) => option[suffix] === item)?.id ??
      fail(`'${String(item)}' is not a valid option ${suffix} for ${key}`);
    if (raw === null || raw === undefined || raw === '') return null;
    return Array.isArray(raw) ? raw.map(lookup) : lookup(raw);
  }

  private coerce(field: FieldDef, raw: unknown, key: string): unknown {
    if (raw === null || raw === undefined) return null;
    if (field.serialize) {
      const list: unknown[] = Array.isArray(raw) ? raw : raw === '' ? [] : [raw];
      return list.map((item) => this.coerceScalar(field, item, key)).filter((item) => item !== null);
    }
    if (typeof raw === 'object') return fail(`Expected a single value for ${key}`);
    return this.coerceScalar(field, raw, key);
  }

  private coerceScalar(field: FieldDef, value: unknown, key: string): unknown {
    if (value === null || value === '') return null;
    if (typeof value === 'object') return fail(`Expected a scalar value for ${key}`);
    const text = String(value).trim();
    // CRM_Utils_Type::validate's message, with the type names measured (a word given to an Int
    // field is reported as not a Timestamp).
    const parameters = this.store.is614 ? 'the parameters' : 'parameters';
    const invalid = (type: string) =>
      fail(`One of ${parameters}  (value: ${String(value)}) is not of the type ${type}`);
    switch (field.type) {
      case 'Int':
      case 'File':
      case 'ContactReference':
        if (typeof value === 'boolean') return value ? 1 : 0;
        if (/^-?\d+$/.test(text)) return Number(text);
        return invalid(/^-?\d*\.\d+$/.test(text) ? 'Integer' : 'Timestamp');
      case 'Float':
        if (typeof value === 'boolean' || !/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text))
          return invalid('Float');
        // A DOUBLE that PHP reads back with 14 significant digits.
        return phpFloat(Number(text));
      case 'Money':
        // DECIMAL(20,2); CiviCRM refuses an exponent.
        if (typeof value === 'boolean' || !/^-?(\d+\.?\d*|\.\d+)$/.test(text)) return invalid('Money');
        return roundMoney(text);
      case 'Boolean':
        if (value === true || text === '1' || text.toLowerCase() === 'true') return true;
        if (value === false || text === '0' || text.toLowerCase() === 'false') return false;
        // Anything else is stored as nothing.
        return null;
      case 'Date':
      case 'Timestamp':
        return writtenDate(text, field.type === 'Timestamp', this.store.now(), this.store.timeZone);
      case 'String':
      case 'Memo':
        return String(value);
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

  /**
   * 5.81 rewrites a file when it becomes a custom value: a file without a name gets an empty uri
   * (so it reads back as `""`, not null) and an upload date.
   */
  private markAttached(stored: unknown): void {
    for (const fileId of asArray(stored)) {
      const file = this.store.state.tables.File.get(Number(fileId));
      if (!file) continue;
      file.fields['uri'] ??= '';
      file.fields['upload_date'] ??= this.store.localNow();
    }
  }

  /** Option values and foreign keys must exist, as CiviCRM's validation and constraints demand. */
  private checkReferences(field: FieldDef, stored: unknown, key: string): void {
    if (stored === null) return;
    const items = Array.isArray(stored) ? stored : [stored];
    if (field.fk) {
      const table = this.store.state.tables[field.fk];
      for (const item of items) {
        if (!table.has(Number(item))) fail(`${key}: no ${field.fk} with id ${String(item)}`);
      }
    } else if (field.options) {
      const allowed = new Set(this.catalog.optionsOf(field.options).map((option) => option.id));
      for (const item of items) {
        if (!allowed.has(String(item))) fail(`'${String(item)}' is not a valid option for ${key}`);
      }
    }
  }

  /** Defaults CiviCRM derives on create (names from labels, next option value...). */
  private beforeCreate(def: EntityDef, record: StoredRecord, values: Record<string, unknown>): void {
    const f = record.fields;
    const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
    switch (def.name) {
      case 'CustomGroup': {
        // CustomGroup.create munges a given name too: `A__b` is stored as `A_b`. The seed
        // stands for a site set up long ago, whose names predate that.
        const name = text(f['name']);
        const source = name ?? text(f['title']);
        if (!(this.store.seeding && name) && source !== undefined) f['name'] = munge(source, 63);
        break;
      }
      case 'CustomField': {
        const label = text(f['label']);
        if (text(f['name']) === undefined && label !== undefined) f['name'] = munge(label, 64);
        break;
      }
      case 'OptionGroup': {
        const title = text(f['title']);
        // A derived name leaves room for a uniqueness suffix (CRM_Core_DAO::makeNameFromLabel).
        if (text(f['name']) === undefined && title !== undefined) f['name'] = munge(title, 59);
        f['title'] ??= f['name'];
        break;
      }
      case 'OptionValue':
        this.optionValueDefaults(f);
        break;
      case 'RelationshipType':
        f['label_a_b'] ??= f['name_a_b'];
        f['name_b_a'] ??= f['name_a_b'];
        f['label_b_a'] ??= f['name_b_a'];
        break;
      case 'File':
        this.storeFile(record, values);
        break;
      case 'Contact':
      case 'Email':
      case 'Activity':
      case 'Relationship':
      case 'RelationshipCache':
      case 'CheckinMiddleware':
        break;
    }
  }

  private optionValueDefaults(f: Record<string, unknown>): void {
    const siblings = [...this.store.state.tables.OptionValue.values()].filter(
      (record) => record.fields['option_group_id'] === f['option_group_id'],
    );
    const numeric = siblings.map((record) => Number(record.fields['value'])).filter(Number.isFinite);
    f['value'] ??= String(Math.max(0, ...numeric) + 1);
    f['name'] ??= typeof f['label'] === 'string' ? munge(f['label'], 59) : f['label'];
  }

  /**
   * File.create as each release does it. 6.14 names the file on disk after `file_name` and
   * writes `content` as sent (base64 stays base64 text); 5.81 knows neither field, so the row
   * has no uri and no bytes. With the extension installed and the service's marker
   * (`contentEncoding: 'base64'`), the content is decoded first, on both. The seed stands for
   * files already on disk: its base64 content is decoded.
   */
  private storeFile(record: StoredRecord, values: Record<string, unknown>): void {
    if (values['uri'] !== undefined) fail('Setting file URI is not permitted. Use file_name instead.');
    record.fields['created_id'] = this.store.context.user.contactId;
    const marked = this.store.context.contentEncoding?.toLowerCase() === 'base64';
    const decode = (this.store.extensionInstalled && marked) || this.store.seeding;
    if (!this.store.is614 && !decode) {
      record.fields['uri'] = null;
      record.fields['upload_date'] ??= null;
      return;
    }
    const fileName = values['file_name'];
    if (typeof fileName === 'string' && fileName !== '') {
      if (/[/\\]/.test(fileName)) fail('Malformed name');
      record.fields['uri'] = makeFileName(fileName, randomBytes(16).toString('hex'));
    } else {
      record.fields['uri'] = null;
    }
    record.fields['upload_date'] ??= this.store.localNow();
    const content = values['content'];
    if (content === undefined || content === null || content === '') return;
    const text = typeof content === 'string' ? content : JSON.stringify(content);
    if (decode) {
      const valid = /^[A-Za-z0-9+/]*={0,2}$/.test(text) && text.length % 4 === 0;
      if (!valid && !this.store.seeding) fail('File content is not valid base64');
      record.fields[FILE_BYTES] = new Uint8Array(valid ? Buffer.from(text, 'base64') : Buffer.from(text));
      if (marked) record.fields[FILE_DECODED] = true;
    } else if (record.fields['uri']) {
      // Without a name there is no path to write to: CiviCRM stores no bytes.
      record.fields[FILE_BYTES] = new Uint8Array(Buffer.from(text, 'utf8'));
    }
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
    const text = this.coerceScalar({ name: 'email', type: 'String' }, email, 'email_primary.email');
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
