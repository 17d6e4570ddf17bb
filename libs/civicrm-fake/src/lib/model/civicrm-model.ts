import { ModelApi3 } from './api3';
import { ACTION_PARAMS, COMMON_PARAMS, UNSUPPORTED_PARAMS, requiredPermissions } from './entities';
import {
  ADMIN_USER,
  Api4Error,
  CHECKIN_EXTENSION_VERSION,
  CHECKIN_INFO_PERMISSIONS,
  CIVICRM_RELEASES,
  type CallContext,
  type CiviCrmModelOptions,
  type CrmRow,
  type EntityDef,
  type EntityName,
  type ModelSnapshot,
  type ModelState,
  type TableName,
} from './types';
import { type Params, fail, isPlainObject, jsonCopy } from './values';

/**
 * An in-memory CiviCRM: the entities this service touches, evaluated with APIv4 semantics
 * (select with joins and pseudoconstants, where/orderBy/limit, typed values, checksums) plus
 * the one APIv3 call the service makes (Attachment.get). It is the CRM of stub mode (through
 * InMemoryCrmClient) and of the HTTP emulator, so there is one fake CRM, not two.
 *
 * It is strict where CiviCRM is strict (unknown where fields, illegal operators, unknown
 * top-level params, unknown custom fields in values are all errors), because a fake that
 * forgives mistakes lets them reach production.
 *
 * A fresh model holds what a fresh CiviCRM holds (activity types and statuses, stock
 * relationship types, the domain organization); the deployment's custom fields and the demo
 * contacts come from a seed function (the back end's demo-data.ts).
 *
 * Each concern is a layer in its own file, each class extending the one before: model-base.ts
 * (state, lookups), checksums.ts, files.ts, query.ts (get), writes.ts, api3.ts, and this one
 * (APIv4 dispatch, permissions, the stock seed, snapshots).
 */
export class CiviCrmModel extends ModelApi3 {
  private seeded: ModelSnapshot;

  constructor(options: CiviCrmModelOptions = {}) {
    super(options);
    this.seeding = true;
    try {
      this.seedStock();
      options.seed?.(this);
    } finally {
      this.seeding = false;
    }
    this.seeded = this.snapshot();
  }

  /**
   * One APIv4 call; returns the `values` rows or throws Api4Error like CiviCRM would answer.
   * Without a context the caller is an administrator, as the service's API user is.
   */
  api4(entity: string, action: string, params: unknown = {}, context: CallContext = {}): CrmRow[] {
    const previous = this.context;
    this.context = { ...context, user: context.user ?? ADMIN_USER };
    try {
      const def = this.entityDef(entity, action);
      if (!def.actions.includes(action)) fail(`Api ${entity} ${action} version 4 does not exist.`);
      const input = this.checkParams(action, jsonCopy(params));
      this.authorize(def, action);
      return jsonCopy(this.dispatch(def, action, input));
    } finally {
      this.context = previous;
    }
  }

  /** CRM_Core_Permission::getEntityActionPermissions for the entities modelled. */
  private authorize(def: EntityDef, action: string): void {
    const required = requiredPermissions(def.name, action);
    const allowed = required.every((need) =>
      typeof need === 'string' ? this.hasPermission(need) : need.some((one) => this.hasPermission(one)),
    );
    if (!allowed) throw new Api4Error(403, 'Authorization failed');
  }

  private checkParams(action: string, params: unknown): Params {
    // An empty JSON array decodes to an empty PHP array: the call runs with no params.
    if (Array.isArray(params) && params.length === 0) return {};
    if (!isPlainObject(params)) return fail('Params must be an object');
    const allowed = [...(ACTION_PARAMS[action] ?? []), ...COMMON_PARAMS];
    for (const key of Object.keys(params)) {
      if (UNSUPPORTED_PARAMS.has(key)) fail(`The parameter "${key}" is not supported by this model`);
      // CiviCRM looks for a setter named after the param.
      if (!allowed.includes(key))
        fail(`Unknown api parameter: set${key.charAt(0).toUpperCase()}${key.slice(1)}`);
    }
    return params;
  }

  private dispatch(def: EntityDef, action: string, params: Params): CrmRow[] {
    switch (action) {
      case 'get':
        return this.get(def, params);
      case 'create':
        return [this.create(def, this.valuesParam(params))];
      case 'update':
        return this.update(def, params);
      case 'delete':
        return this.delete(def, params);
      case 'save':
        return this.save(def, params);
      case 'validateChecksum':
        return [{ valid: this.validateChecksum(params['contactId'], params['checksum']) }];
      case 'getChecksum':
        return [this.getChecksum(params['contactId'], params['ttl'])];
      case 'info':
        return [
          {
            extension_version: CHECKIN_EXTENSION_VERSION,
            civicrm_version: CIVICRM_RELEASES[this.civicrmVersion],
            timezone: this.timeZone,
            permissions: Object.fromEntries(
              CHECKIN_INFO_PERMISSIONS.map((permission) => [permission, this.hasPermission(permission)]),
            ),
          },
        ];
      default:
        return fail(`Api ${def.name} ${action} version 4 does not exist.`);
    }
  }

  /** Makes every later checksum check for this contact also accept `checksum` as given. */
  setFixedChecksum(contactId: number, checksum: string): void {
    const list = this.state.fixedChecksums.get(contactId) ?? [];
    this.state.fixedChecksums.set(contactId, [...list, checksum]);
  }

  /** The id the next created record of `entity` gets (seeds use it for memorable ids). */
  setNextId(entity: EntityName, next: number): void {
    if (entity === 'RelationshipCache') fail('RelationshipCache has no ids of its own');
    const table = entity as TableName;
    const highest = Math.max(0, ...this.state.tables[table].keys());
    if (next <= highest) fail(`${entity} ids up to ${highest} are taken`);
    this.state.nextIds[table] = next;
  }

  /** Number of stored records, deleted ones included. */
  count(entity: EntityName): number {
    if (entity === 'CheckinMiddleware') return 0;
    return entity === 'RelationshipCache' ? this.relationshipCache().length : this.state.tables[entity].size;
  }

  snapshot(): ModelSnapshot {
    return { state: structuredClone(this.state) };
  }

  restore(snapshot: ModelSnapshot): void {
    this.state = structuredClone(snapshot.state as ModelState);
    this.customCache.clear();
  }

  /** Back to the state right after seeding. */
  reset(): void {
    this.restore(this.seeded);
  }

  /** What a fresh CiviCRM holds before anyone configures it. */
  private seedStock(): void {
    const group = (name: string, title: string, values: Array<[number, string]>) => {
      const created = this.api4('OptionGroup', 'create', { values: { name, title, is_reserved: true } })[0];
      for (const [value, label] of values) {
        this.api4('OptionValue', 'create', {
          values: {
            option_group_id: created?.['id'],
            value: String(value),
            name: label,
            label,
            weight: value,
          },
        });
      }
    };
    group('activity_type', 'Activity Type', [
      [1, 'Meeting'],
      [2, 'Phone Call'],
      [3, 'Email'],
      [4, 'Outbound SMS'],
      [14, 'Follow up'],
    ]);
    group('activity_status', 'Activity Status', [
      [1, 'Scheduled'],
      [2, 'Completed'],
      [3, 'Cancelled'],
      [4, 'Left Message'],
    ]);
    const stockTypes: Array<[string, string, string, string]> = [
      ['Child of', 'Parent of', 'Individual', 'Individual'],
      ['Spouse of', 'Spouse of', 'Individual', 'Individual'],
      ['Sibling of', 'Sibling of', 'Individual', 'Individual'],
      ['Employee of', 'Employer of', 'Individual', 'Organization'],
      ['Volunteer for', 'Volunteer is', 'Individual', 'Organization'],
    ];
    for (const [nameAB, nameBA, typeA, typeB] of stockTypes) {
      this.api4('RelationshipType', 'create', {
        values: {
          name_a_b: nameAB,
          name_b_a: nameBA,
          contact_type_a: typeA,
          contact_type_b: typeB,
          is_reserved: true,
        },
      });
    }
    this.api4('Contact', 'create', {
      values: { contact_type: 'Organization', organization_name: 'Default Organization' },
    });
  }
}
