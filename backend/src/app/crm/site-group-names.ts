import type { OnApplicationShutdown } from '@nestjs/common';
import { BoundedCache } from '@checkin/contract';
import type { CustomGroupNames } from '../config/app-config';
import type {
  Api4Call,
  Api4CallResult,
  Api4Condition,
  Api4Params,
  CrmClient,
  CrmRow,
  NewCrmFile,
} from './crm-client';
import { ACTIVITY_CUSTOM_GROUP, CONTACT_CUSTOM_GROUP } from './crm-names';

/**
 * The code names the two custom groups as the product documents them (crm-names.ts); a CiviCRM
 * site may store them under other machine names, because CiviCRM munges a new group's name and
 * never renames one (`Check_in_data__organizing_` is created as `Check_in_data_organizing_`).
 *
 * This client wraps the live one and is the only place that knows: it spells field names the
 * site's way in every outgoing parameter (select, where, orderBy, values, join conditions, and
 * group names compared with `custom_group_id:name`) and the code's way in every answer row.
 * When the site uses the documented names it is not installed at all (see wrapForSiteGroupNames).
 */
export class SiteGroupNamesClient implements CrmClient, OnApplicationShutdown {
  private readonly toSite: ReadonlyMap<string, string>;
  private readonly toCode: ReadonlyMap<string, string>;
  /**
   * Answer columns as the code names them, per site column: a report renames the same fifty
   * columns on each of hundreds of rows, and slicing each name again cost more than the read.
   */
  private readonly codeColumns = new BoundedCache<string, string>(MAX_REMEMBERED_COLUMNS);

  constructor(
    private readonly inner: CrmClient,
    names: ReadonlyMap<string, string>,
  ) {
    this.toSite = names;
    this.toCode = new Map([...names].map(([code, site]) => [site, code]));
  }

  get fileBaseUrl(): string | null {
    return this.inner.fileBaseUrl;
  }

  get checksumShape(): RegExp {
    return this.inner.checksumShape;
  }

  /** Nest calls shutdown hooks on the provided instance: the wrapped client's pool must close. */
  async onApplicationShutdown(): Promise<void> {
    await (this.inner as Partial<OnApplicationShutdown>).onApplicationShutdown?.();
  }

  async api4<T extends CrmRow = CrmRow>(entity: string, action: string, params?: Api4Params): Promise<T[]> {
    const rows = await this.inner.api4<CrmRow>(entity, action, params && this.outgoing(params));
    return rows.map((row) => this.incoming(row) as T);
  }

  async batch(calls: Readonly<Record<string, Api4Call>>): Promise<Record<string, Api4CallResult>> {
    const renamed = Object.fromEntries(
      Object.entries(calls).map(([name, [entity, action, params]]) => [
        name,
        [entity, action, params && this.outgoing(params)] as const,
      ]),
    );
    const results = await this.inner.batch(renamed);
    return Object.fromEntries(
      Object.entries(results).map(([name, result]) => [
        name,
        'rows' in result ? { rows: result.rows.map((row) => this.incoming(row)) } : result,
      ]),
    );
  }

  api3<T extends CrmRow = CrmRow>(
    entity: string,
    action: string,
    params: Record<string, unknown>,
  ): Promise<T[]> {
    return this.inner.api3<T>(entity, action, params);
  }

  async createFile<T extends CrmRow = CrmRow>(file: NewCrmFile): Promise<T[]> {
    return this.inner.createFile<T>(file);
  }

  private outgoing(params: Api4Params): Api4Params {
    const renamed: Api4Params = { ...params };
    if (params.select) renamed.select = params.select.map((field) => this.field(field, this.toSite));
    if (params.where) renamed.where = params.where.map((condition) => this.condition(condition));
    if (params.orderBy) renamed.orderBy = this.keys(params.orderBy, this.toSite);
    if (params.values) renamed.values = this.keys(params.values, this.toSite);
    if (Array.isArray(params['join'])) {
      renamed['join'] = (params['join'] as unknown[]).map((join) =>
        Array.isArray(join)
          ? join.map((part) => (Array.isArray(part) ? this.condition(part as Api4Condition) : part))
          : join,
      );
    }
    return renamed;
  }

  private condition(condition: Api4Condition): Api4Condition {
    const [first, second, value] = condition;
    if (Array.isArray(second)) return [first, second.map((inner) => this.condition(inner))] as Api4Condition;
    const field = this.field(first, this.toSite);
    if (GROUP_NAME_FIELDS.has(first))
      return [field, second, this.groupNames(value, this.toSite)] as Api4Condition;
    return (condition.length > 2 ? [field, second, value] : [field, second]) as Api4Condition;
  }

  private incoming(row: CrmRow): CrmRow {
    const renamed: CrmRow = {};
    for (const key of Object.keys(row)) {
      const value = row[key];
      renamed[this.codeColumn(key)] = GROUP_NAME_FIELDS.has(key)
        ? this.groupNames(value, this.toCode)
        : value;
    }
    return renamed;
  }

  /** Column names come from the service's own selects, so few are kept; the bound guards the rest. */
  private codeColumn(siteColumn: string): string {
    return this.codeColumns.get(siteColumn, () => this.field(siteColumn, this.toCode));
  }

  private keys(record: Record<string, unknown>, names: ReadonlyMap<string, string>): Record<string, never> {
    const renamed: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) renamed[this.field(key, names)] = value;
    return renamed as Record<string, never>;
  }

  /** `Group.Field` or `Group.Field.join` (also inside an explicit join's alias path). */
  private field(name: string, names: ReadonlyMap<string, string>): string {
    const dot = name.indexOf('.');
    if (dot < 0) return name;
    const group = names.get(name.slice(0, dot));
    return group === undefined ? name : group + name.slice(dot);
  }

  private groupNames(value: unknown, names: ReadonlyMap<string, string>): unknown {
    if (typeof value === 'string') return names.get(value) ?? value;
    if (Array.isArray(value)) return value.map((item) => this.groupNames(item, names));
    return value;
  }
}

const MAX_REMEMBERED_COLUMNS = 2_000;

/**
 * Columns whose values are custom group names: `custom_group_id:name` wherever it appears, and
 * `name` itself (CustomGroup.get). A `name` of another entity is renamed only if it equals one of
 * the two group names exactly, which no other record the service reads is called.
 */
const GROUP_NAME_FIELDS: ReadonlySet<string> = new Set([
  'custom_group_id:name',
  'custom_group_id.name',
  'name',
]);

/** The live client as is when the site uses the documented names, else wrapped to rename. */
export function wrapForSiteGroupNames(client: CrmClient, groups: CustomGroupNames): CrmClient {
  const names = new Map<string, string>();
  if (groups.activity !== ACTIVITY_CUSTOM_GROUP) names.set(ACTIVITY_CUSTOM_GROUP, groups.activity);
  if (groups.contact !== CONTACT_CUSTOM_GROUP) names.set(CONTACT_CUSTOM_GROUP, groups.contact);
  return names.size === 0 ? client : new SiteGroupNamesClient(client, names);
}
