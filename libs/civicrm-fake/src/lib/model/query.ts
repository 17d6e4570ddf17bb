import type { EntityCatalog } from './catalog';
import { ACTIVITY_CONTACT_DEF, ACTIVITY_CONTACT_ROW_DEF, ENTITIES } from './entities';
import { compareForSort, mentionsField, operatorTest } from './query-operators';
import {
  API4_OPERATORS,
  type EntityDef,
  type JoinSpec,
  type Operator,
  type StoredRecord,
  type CrmRow,
  type FieldContext,
  type FieldDef,
} from './types';
import type { ModelStore } from './store';
import {
  FILE_ENTITY_ID,
  type Params,
  type Predicate,
  type ResolvedField,
  fail,
  isPlainObject,
} from './values';

/** APIv4 get: select (with joins and pseudoconstants), where, orderBy, limit and the ACLs that filter rows. */
/** The aliases CiviCRM accepts for an explicit join (`a` is its main table's). */
const JOIN_ALIAS = /^[-\w]{1,256}$/;

export class QueryEngine {
  /** Aliases of the get being answered, so `alias.field` resolves. */
  private joinAliases = new Map<string, JoinSpec>();

  constructor(
    private readonly store: ModelStore,
    private readonly catalog: EntityCatalog,
    /** What computed fields read (the clock, file URLs). */
    private readonly fieldContext: FieldContext,
  ) {}

  get(def: EntityDef, params: Params): CrmRow[] {
    const joins = this.compileJoins(def, params['join']);
    this.joinAliases = new Map(joins.map((join) => [join.alias, join]));
    try {
      const select = this.resolveSelect(def, params['select']);
      const records = this.aclAllows(def) ? this.query(def, params, joins) : [];
      return records.map((record) => {
        const row: CrmRow = {};
        for (const [key, field] of select) row[key] = decodedAngles(field.get(record));
        return row;
      });
    } finally {
      this.joinAliases = new Map();
    }
  }

  /** Contacts, activities and their kin are filtered by ACLs: a user without them sees nothing. */
  private aclAllows(def: EntityDef): boolean {
    switch (def.name) {
      case 'Contact':
      case 'Email':
      case 'Relationship':
      case 'RelationshipCache':
        return this.store.hasPermission('view all contacts') || this.store.hasPermission('edit all contacts');
      case 'Activity':
        return this.store.hasPermission('view all activities');
      case 'CustomGroup':
      case 'CustomField':
        return this.store.hasPermission('access all custom data');
      case 'RelationshipType':
      case 'OptionGroup':
      case 'OptionValue':
      case 'File':
      case 'CheckinMiddleware':
        return true;
    }
  }

  /** where + orderBy + offset/limit over an entity, hidden records excluded by default. */
  query(def: EntityDef, params: Params, joins: JoinSpec[] = []): StoredRecord[] {
    const where = this.compileWhere(def, params['where']);
    const order = this.compileOrderBy(def, params['orderBy']);
    const limit = this.nonNegativeInt(params['limit'], 'limit');
    const offset = this.nonNegativeInt(params['offset'], 'offset');
    // The conditions on the entity's own fields narrow the records before the joins multiply
    // them (the full `where` still runs after): the same answer, at a cost that follows the matches.
    const ownClauses = joins.length === 0 ? [] : this.ownFieldClauses(params['where']);
    const own = ownClauses.map((clause) => this.compileClause(def, clause));
    const records = this.catalog.records(def).filter((record) => own.every((test) => test(record)));
    const matched = this.joinRows(def, records, joins).filter(where).sort(order);
    return matched.slice(offset, limit ? offset + limit : undefined);
  }

  /** The top-level where clauses that name no joined alias, anywhere inside them. */
  private ownFieldClauses(where: unknown): unknown[] {
    if (!Array.isArray(where)) return [];
    const namesAlias = (clause: unknown): boolean => {
      if (!Array.isArray(clause) || typeof clause[0] !== 'string') return true;
      const [head, second] = clause as [string, unknown];
      if (head === 'OR' || head === 'AND' || head === 'NOT') {
        return !Array.isArray(second) || second.some(namesAlias);
      }
      return this.joinAliases.has(head.split(/[.:]/)[0] ?? '');
    };
    return where.filter((clause) => !namesAlias(clause));
  }

  /**
   * `join: [["File AS f", "LEFT", [cond]...]]` and the bridge form
   * `["Contact AS src", "LEFT", "ActivityContact", [cond]...]`; conditions compare fields of
   * the base entity and the alias, or a field with a quoted literal.
   */
  private compileJoins(def: EntityDef, join: unknown): JoinSpec[] {
    if (join === undefined) return [];
    if (!Array.isArray(join)) return fail('join must be an array');
    return join.map((entry: unknown): JoinSpec => {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string') return fail('Invalid join');
      const [entityName = '', named] = entry[0].split(' AS ');
      if (!/^\w+$/.test(entityName)) return fail(`Invalid join: ${entry[0]}`);
      // CiviCRM (Api4SelectQuery::addExplicitJoins) defaults the alias to the entity's name and
      // refuses any alias outside this pattern, whatever the entity.
      const alias = named || entityName.toLowerCase();
      if (alias === 'a' || !JOIN_ALIAS.test(alias)) return fail(`Illegal join alias: "${alias}"`);
      const kind = entry[1] === undefined ? 'LEFT' : entry[1];
      if (kind !== 'LEFT' && kind !== 'INNER' && kind !== 'EXCLUDE')
        return fail(`Invalid join type: ${String(kind)}`);
      if (entityName === 'ActivityContact') {
        if (def.name !== 'Activity') return fail(`ActivityContact cannot be joined to ${def.name}`);
        return {
          alias,
          def: ACTIVITY_CONTACT_ROW_DEF,
          kind,
          // Only the row's own pairs: every join the service sends pairs on activity_id = id,
          // which the conditions still check.
          candidates: (row) => this.catalog.activityContactRows(row),
          conditions: entry.slice(2) as unknown[],
        };
      }
      const target = this.catalog.entityDef(entityName);
      let rest = entry.slice(2) as unknown[];
      if (typeof rest[0] === 'string') {
        const bridge = rest[0];
        rest = rest.slice(1);
        if (bridge !== 'ActivityContact' || def.name !== 'Activity' || target.name !== 'Contact') {
          return fail(`Bridge ${bridge} cannot join ${target.name} to ${def.name}`);
        }
        // 6.14 applies Contact's ACL to the joined contact: without "access deleted contacts" a
        // contact in the trash is not joined (its fields answer null); 5.81 joins it for any user.
        const hidesTrashed = this.store.is614 && !this.store.hasPermission('access deleted contacts');
        return {
          alias,
          def: ACTIVITY_CONTACT_DEF,
          kind,
          candidates: (row) =>
            this.catalog
              .activityContacts(row)
              .filter((contact) => !(hidesTrashed && contact.fields['is_deleted'] === true)),
          conditions: rest,
        };
      }
      if (target.name === 'RelationshipCache' || target.name === 'CheckinMiddleware') {
        return fail(`${target.name} cannot be joined`);
      }
      const table = target.name;
      return {
        alias,
        def: target,
        kind,
        // 5.81 renders a joined file's url with the row it hangs from (`eid`).
        candidates: (row) =>
          [...this.store.state.tables[table].values()].map((record) =>
            table === 'File' ? { ...record, fields: { ...record.fields, [FILE_ENTITY_ID]: row.id } } : record,
          ),
        conditions: rest,
      };
    });
  }

  private joinRows(def: EntityDef, records: StoredRecord[], joins: JoinSpec[]): StoredRecord[] {
    let rows = records;
    for (const join of joins) {
      const conditions = join.conditions.map((condition) => this.compileJoinCondition(def, condition));
      const next: StoredRecord[] = [];
      for (const row of rows) {
        const paired = join
          .candidates(row)
          .map((candidate) => ({ ...row, joined: { ...row.joined, [join.alias]: candidate } }))
          .filter((candidate) => conditions.every((test) => test(candidate)));
        if (join.kind === 'EXCLUDE') {
          if (paired.length === 0) next.push({ ...row, joined: { ...row.joined, [join.alias]: null } });
        } else if (paired.length > 0) {
          next.push(...paired);
        } else if (join.kind === 'LEFT') {
          next.push({ ...row, joined: { ...row.joined, [join.alias]: null } });
        }
      }
      rows = next;
    }
    return rows;
  }

  private compileJoinCondition(def: EntityDef, condition: unknown): Predicate {
    if (!Array.isArray(condition) || condition.length !== 3 || typeof condition[0] !== 'string') {
      return fail(`Invalid join condition: ${JSON.stringify(condition)}`);
    }
    const [left, operator, right] = condition as [string, unknown, unknown];
    if (operator !== '=' && operator !== '!=') return fail(`Illegal operator`);
    const side = (expression: unknown): ((row: StoredRecord) => unknown) => {
      if (typeof expression === 'number') return () => expression;
      if (typeof expression !== 'string') return fail(`Invalid join condition: ${JSON.stringify(condition)}`);
      const quoted = /^"(.*)"$|^'(.*)'$/.exec(expression);
      if (quoted) {
        const literal = quoted[1] ?? quoted[2] ?? '';
        return () => literal;
      }
      if (/^-?\d+$/.test(expression)) return () => Number(expression);
      const field = this.resolve(def, expression) ?? fail(`Invalid field '${expression}'`);
      return field.get;
    };
    const a = side(left);
    const b = side(right);
    return (row) => {
      const x = a(row);
      const y = b(row);
      const same = x !== null && y !== null && x !== undefined && String(x) === String(y);
      return operator === '=' ? same : !same;
    };
  }

  private nonNegativeInt(value: unknown, name: string): number {
    if (value === undefined || value === null) return 0;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      fail(`${name} must be a non-negative integer`);
    }
    return value as number;
  }

  private resolveSelect(def: EntityDef, select: unknown): Array<[string, ResolvedField]> {
    if (select !== undefined && (!Array.isArray(select) || select.some((item) => typeof item !== 'string'))) {
      fail('select must be an array of strings');
    }
    const requested = (select as string[] | undefined)?.length ? (select as string[]) : ['*'];
    const names = ['id', ...requested.flatMap((name) => this.expandWildcard(def, name))];
    const resolved: Array<[string, ResolvedField]> = [];
    for (const name of new Set(names)) {
      // Unknown names are silently dropped, as CiviCRM does.
      const field = this.resolve(def, name);
      if (field) resolved.push([name, field]);
    }
    return resolved;
  }

  private expandWildcard(def: EntityDef, name: string): string[] {
    if (name === '*') return def.fields.filter((field) => !field.extra).map((field) => field.name);
    if (!name.endsWith('.*')) return [name];
    const keys = [...this.catalog.customFields(def).keys()];
    if (name === 'custom.*') return keys;
    const group = name.slice(0, -1);
    return keys.filter((key) => key.startsWith(group));
  }

  /** Resolves `field`, `fk.field`, `Group.Field`, `Group.FileField.file_name`, `...:name`. */
  resolve(def: EntityDef, expression: string): ResolvedField | undefined {
    const colon = expression.lastIndexOf(':');
    const path = colon >= 0 ? expression.slice(0, colon) : expression;
    const suffix = colon >= 0 ? expression.slice(colon + 1) : undefined;
    const base = this.resolvePath(def, path.split('.'));
    if (!base || suffix === undefined) return base;
    if ((suffix !== 'name' && suffix !== 'label') || !base.def.options) return undefined;
    const options = this.catalog.optionsOf(base.def.options);
    const pick = (value: unknown) => {
      const option = options.find((candidate) => candidate.id === String(value));
      return option ? option[suffix] : null;
    };
    return {
      def: { ...base.def, type: 'String', fk: undefined, options: undefined },
      pseudo: true,
      get: (record) => {
        const value = base.get(record);
        if (value === null || value === undefined) return null;
        return Array.isArray(value) ? value.map(pick) : pick(value);
      },
    };
  }

  private resolvePath(def: EntityDef, parts: string[], top = true): ResolvedField | undefined {
    const join = top && parts.length >= 2 ? this.joinAliases.get(parts[0] ?? '') : undefined;
    if (join) {
      const inner = this.resolvePath(join.def, parts.slice(1), false);
      if (!inner) return undefined;
      const alias = join.alias;
      return {
        def: inner.def,
        pseudo: inner.pseudo,
        get: (record) => {
          const joined = record.joined?.[alias];
          return joined ? inner.get(joined) : null;
        },
      };
    }
    const custom =
      parts.length >= 2 && def.customExtends
        ? this.catalog.customFields(def).get(`${parts[0]}.${parts[1]}`)
        : undefined;
    const field = custom ?? def.fields.find((candidate) => candidate.name === parts[0]);
    if (!field || (field.since614 && !this.store.is614)) return undefined;
    const rest = parts.slice(custom ? 2 : 1);
    const get = this.getterOf(field);
    if (rest.length === 0) return { def: field, pseudo: false, get };
    // Virtual fields (source_contact_id...) cannot be joined through; 5.81 has no implicit
    // join from a File custom field (both are dropped from select, invalid in where).
    if (!field.fk || field.serialize || field.extra) return undefined;
    if (custom && field.fk === 'File' && !this.store.is614) return undefined;
    const target = ENTITIES[field.fk];
    const inner = this.resolvePath(target, rest, false);
    if (!inner) return undefined;
    const table = field.fk;
    return {
      def: inner.def,
      pseudo: inner.pseudo,
      get: (record) => {
        const foreignId = get(record);
        const joined = foreignId === null ? undefined : this.store.state.tables[table].get(Number(foreignId));
        return joined ? inner.get(joined) : null;
      },
    };
  }

  private compileWhere(def: EntityDef, where: unknown): Predicate {
    if (where !== undefined && !Array.isArray(where)) fail('where must be an array');
    const clauses = (where as unknown[] | undefined) ?? [];
    const predicates = clauses.map((clause) => this.compileClause(def, clause));
    // Deleted and test records are hidden unless the caller asks about them.
    for (const hidden of def.hiddenByDefault ?? []) {
      if (!mentionsField(clauses, hidden)) predicates.push((record) => record.fields[hidden] !== true);
    }
    return (record) => predicates.every((predicate) => predicate(record));
  }

  private compileClause(def: EntityDef, clause: unknown): Predicate {
    if (!Array.isArray(clause) || typeof clause[0] !== 'string') {
      return fail(`Invalid where clause: ${JSON.stringify(clause)}`);
    }
    const [head, second, value, isExpression] = clause as [string, unknown, unknown, unknown];
    if (head === 'OR' || head === 'AND' || head === 'NOT') {
      if (!Array.isArray(second)) fail(`${head} expects an array of clauses`);
      const inner = (second as unknown[]).map((item) => this.compileClause(def, item));
      if (head === 'OR') return (record) => inner.some((predicate) => predicate(record));
      const all: Predicate = (record) => inner.every((predicate) => predicate(record));
      return head === 'AND' ? all : (record) => !all(record);
    }
    if (typeof second !== 'string' || !(API4_OPERATORS as readonly string[]).includes(second)) {
      return fail(`Illegal operator: ${String(second)}`);
    }
    if (isExpression === true) fail('Field expressions as where values are not supported by this model');
    const field = this.resolve(def, head) ?? fail(`Invalid field '${head}'`);
    const test = operatorTest(second as Operator, value, field);
    return (record) => test(field.get(record));
  }

  private compileOrderBy(def: EntityDef, orderBy: unknown): (a: StoredRecord, b: StoredRecord) => number {
    if (Array.isArray(orderBy) && orderBy.length === 0) orderBy = {};
    if (orderBy !== undefined && !isPlainObject(orderBy)) fail('orderBy must be an object');
    const keys = Object.entries((orderBy as Record<string, unknown> | undefined) ?? {}).map(
      ([name, direction]) => {
        if (direction !== 'ASC' && direction !== 'DESC') {
          fail(`Invalid sort direction for ${name}: ${String(direction)} (use ASC or DESC)`);
        }
        const field = this.resolve(def, name) ?? fail(`Invalid field '${name}'`);
        return { field, sign: direction === 'DESC' ? -1 : 1 };
      },
    );
    return (a, b) => {
      for (const { field, sign } of keys) {
        const result = compareForSort(field, field.get(a), field.get(b));
        if (result !== 0) return sign * result;
      }
      // Like MySQL reading the primary key: ties come back in id order.
      return a.id - b.id;
    };
  }

  private getterOf(field: FieldDef): (record: StoredRecord) => unknown {
    const customId = field.customFieldId;
    if (customId !== undefined) return (record) => record.custom[String(customId)] ?? null;
    const compute = field.compute;
    if (compute) return (record) => compute(record, this.fieldContext);
    return (record) => record.fields[field.name] ?? null;
  }
}

/**
 * CiviCRM's APIv4 answers every text with `&lt;` and `&gt;` read as `<` and `>` (and no other
 * reference), whatever was stored: text written as "&lt;" comes back as "<" (measured on 6.14
 * and 5.81; docs/emulator.md).
 */
export function decodedAngles(value: unknown): unknown {
  if (typeof value === 'string')
    return value.includes('&') ? value.replace(/&lt;/g, '<').replace(/&gt;/g, '>') : value;
  if (Array.isArray(value) && value.some((item) => typeof item === 'string')) return value.map(decodedAngles);
  return value;
}
