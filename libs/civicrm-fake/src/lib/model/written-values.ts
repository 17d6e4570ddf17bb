import type { EntityCatalog } from './catalog';
import type { ModelStore } from './store';
import { Api4Error, type EntityDef, type FieldDef, type StoredRecord } from './types';
import { DB_ERROR, asArray, fail, isInt32, phpFloat, roundMoney, writtenDate } from './values';

/**
 * The values of an APIv4 write as CiviCRM stores them: typed per field, options and foreign keys
 * checked, custom values refused the way MySQL refuses them (docs/emulator.md).
 */
export class WrittenValues {
  constructor(
    private readonly store: ModelStore,
    private readonly catalog: EntityCatalog,
  ) {}

  /**
   * Validates and stores `values` on a record; unknown keys, custom ones included, are ignored
   * as in CiviCRM. Returns why custom values were refused (a type error, a 32-bit Int overflow
   * MySQL refuses): the caller decides what was saved before the refusal.
   */
  applyValues(def: EntityDef, record: StoredRecord, values: Record<string, unknown>): string[] {
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

  coerceScalar(field: FieldDef, value: unknown, key: string): unknown {
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
}
