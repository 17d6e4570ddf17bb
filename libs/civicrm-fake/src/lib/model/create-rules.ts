import { randomBytes } from 'node:crypto';
import type { ModelStore } from './store';
import type { EntityDef, StoredRecord, TableName } from './types';
import { FILE_BYTES, FILE_DECODED, fail, makeFileName, munge, newWeight } from './values';

/**
 * What CiviCRM derives per entity when a record is written: names from labels and titles, option
 * values, weights, table and column names, and how each release stores a file's content.
 */
export class CreateRules {
  constructor(private readonly store: ModelStore) {}

  /** Defaults CiviCRM derives on create (names from labels, next option value...). */
  beforeCreate(def: EntityDef, record: StoredRecord, values: Record<string, unknown>): void {
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

  /** Columns CiviCRM derives from the new id. */
  afterCreate(def: EntityDef, record: StoredRecord): void {
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
   * CRM_Utils_Weight::updateOtherWeights for option values and custom fields: a weight past the
   * group's highest lands just after it, a taken weight moves the others along.
   */
  placeWeight(def: EntityDef, record: StoredRecord, oldWeight: number | undefined, given: boolean): void {
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
}
