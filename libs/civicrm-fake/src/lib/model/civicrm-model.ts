import { createHmac } from 'node:crypto';
import { ApiV3 } from './api3';
import { EntityCatalog } from './catalog';
import { ContactChecksums } from './checksums';
import { ACTION_PARAMS, COMMON_PARAMS, UNSUPPORTED_PARAMS, requiredPermissions } from './entities';
import { StoredFiles } from './files';
import { QueryEngine } from './query';
import { SiteSettings } from './settings';
import { ModelStore } from './store';
import {
  Api4Error,
  type ApiUser,
  CHECKIN_EXTENSION_VERSION,
  CHECKIN_INFO_PERMISSIONS,
  CIVICRM_RELEASES,
  type CallContext,
  type CiviCrmModelOptions,
  type CiviCrmVersion,
  type CrmRow,
  type EntityDef,
  type EntityName,
  type FieldContext,
  type ModelSnapshot,
  type ModelState,
  type StoredFile,
  type TableName,
  type V3Envelope,
} from './types';
import { type Params, fail, isPlainObject, jsonCopy } from './values';
import { RecordWriter } from './writes';

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
 * This class is a thin facade: the state lives in one ModelStore (store.ts), handed to one
 * collaborator per concern: EntityCatalog (catalog.ts: entities, options, custom fields),
 * ContactChecksums (checksums.ts), StoredFiles (files.ts: signed file URLs), QueryEngine
 * (query.ts: get), RecordWriter (writes.ts: create, update, delete, save) and ApiV3 (api3.ts:
 * Attachment.get). Here: APIv4 dispatch, parameter and permission checks, the stock seed and
 * snapshots.
 */
export class CiviCrmModel implements FieldContext {
  private readonly store: ModelStore;
  private readonly catalog: EntityCatalog;
  private readonly checksums: ContactChecksums;
  private readonly files: StoredFiles;
  private readonly queries: QueryEngine;
  private readonly writes: RecordWriter;
  private readonly v3: ApiV3;
  private readonly settings: SiteSettings;
  private readonly seeded: ModelSnapshot;

  constructor(options: CiviCrmModelOptions = {}) {
    const store = new ModelStore(options);
    const catalog = new EntityCatalog(store);
    const files = new StoredFiles(store, catalog);
    const queries = new QueryEngine(store, catalog, this);
    this.store = store;
    this.catalog = catalog;
    this.checksums = new ContactChecksums(store);
    this.files = files;
    this.queries = queries;
    this.writes = new RecordWriter(store, catalog, queries, files, this);
    this.v3 = new ApiV3(store, files);
    this.settings = new SiteSettings(store);
    for (const [name, value] of Object.entries(options.settings ?? {})) this.settings.set(name, value);
    store.seeding = true;
    try {
      this.seedStock();
      options.seed?.(this);
    } finally {
      store.seeding = false;
    }
    this.seeded = this.snapshot();
  }

  /** The site's address; the emulator sets it once it listens. */
  get baseUrl(): string {
    return this.store.baseUrl;
  }

  set baseUrl(address: string) {
    this.store.baseUrl = address;
  }

  get civicrmVersion(): CiviCrmVersion {
    return this.store.civicrmVersion;
  }

  get extensionInstalled(): boolean {
    return this.store.extensionInstalled;
  }

  get timeZone(): string {
    return this.store.timeZone;
  }

  /**
   * Imitates an administrator changing the zone CiviCRM applies (on Standalone, the API user's
   * own zone): stored wall-clock values stay as they are, as in CiviCRM.
   */
  setTimeZone(zone: string): void {
    this.store.setTimeZone(zone);
  }

  now(): Date {
    return this.store.now();
  }

  /** "Now" as the CRM's wall clock reads it, `YYYY-MM-DD HH:MM:SS`. */
  localNow(): string {
    return this.store.localNow();
  }

  /** Whether the acting user holds `permission` (the admin role holds every one). */
  hasPermission(permission: string, user?: ApiUser): boolean {
    return this.store.hasPermission(permission, user);
  }

  /**
   * One APIv4 call; returns the `values` rows or throws Api4Error like CiviCRM would answer.
   * Without a context the caller is an administrator, as the service's API user is.
   */
  api4(entity: string, action: string, params: unknown = {}, context: CallContext = {}): CrmRow[] {
    return this.store.asCaller(context, () => {
      if (entity === 'Setting') return this.settingsApi4(action, params);
      const def = this.catalog.entityDef(entity, action);
      if (!def.actions.includes(action)) fail(`Api ${entity} ${action} version 4 does not exist.`);
      const input = this.checkParams(action, jsonCopy(params));
      this.authorize(def, action);
      return jsonCopy(this.dispatch(def, action, input));
    });
  }

  /**
   * One APIv3 call as civicrm/ajax/rest answers it: an envelope, errors included, except where
   * CiviCRM itself dies (Attachment.get with several ids): that throws Api4Error 500, which the
   * emulator answers as the release's error page.
   */
  api3(entity: string, action: string, params: unknown = {}, context: CallContext = {}): V3Envelope {
    return this.v3.api3(entity, action, params, context);
  }

  /**
   * The absolute signed address APIv3 Attachment.get answers: 6.14 signs with a JWT
   * (`{"exp":…,"civi.file":"N"}`, HS256); 5.81 with `<sha256>_<time>_<hours>` bound to the
   * record the file hangs from (`eid`).
   */
  fileUrl(fileId: number, entityId?: number | null): string {
    return this.files.fileUrl(fileId, entityId);
  }

  /** APIv4's File `url` (see StoredFiles.api4FileUrl). */
  api4FileUrl(fileId: number, joinedFrom?: unknown): string | null {
    return this.files.api4FileUrl(fileId, joinedFrom);
  }

  /** Whether `fcs` is a signature this CRM issued for the file and it has not expired. */
  verifyFileSignature(fileId: number, fcs: string, entityId?: string | null): boolean {
    return this.files.verifyFileSignature(fileId, fcs, entityId);
  }

  getFile(fileId: number): StoredFile | undefined {
    return this.files.getFile(fileId);
  }

  /** A domain setting's value (`defaultCurrency`, `lcMessages`...), CiviCRM's default until set. */
  setting(name: string): string {
    return this.settings.value(name);
  }

  /** Imitates an administrator changing a domain setting (Administer > Localization). */
  setSetting(name: string, value: string): void {
    this.settings.set(name, value);
  }

  private settingsApi4(action: string, params: unknown): CrmRow[] {
    if (action !== 'get' && action !== 'set') fail(`Api Setting ${action} version 4 does not exist.`);
    const input = this.checkParams(`Setting.${action}`, jsonCopy(params));
    // Setting declares no permissions of its own: CiviCRM's default, administer CiviCRM, for every action.
    if (!this.store.hasPermission('administer CiviCRM')) throw new Api4Error(403, 'Authorization failed');
    return jsonCopy(this.settings.api4(action, input));
  }

  /** CRM_Core_Permission::getEntityActionPermissions for the entities modelled. */
  private authorize(def: EntityDef, action: string): void {
    const required = requiredPermissions(def.name, action);
    const allowed = required.every((need) =>
      typeof need === 'string'
        ? this.store.hasPermission(need)
        : need.some((one) => this.store.hasPermission(one)),
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
        return this.queries.get(def, params);
      case 'create':
        return [this.writes.create(def, this.writes.valuesParam(params))];
      case 'update':
        return this.writes.update(def, params);
      case 'delete':
        return this.writes.delete(def, params);
      case 'save':
        return this.writes.save(def, params);
      case 'validateChecksum':
        return [{ valid: this.checksums.validateChecksum(params['contactId'], params['checksum']) }];
      case 'getChecksum':
        return [this.checksums.getChecksum(params['contactId'], params['ttl'])];
      case 'verifyKeys':
        return [this.verifyLinkKeys(params['message'], params['signatures'])];
      case 'info':
        return [
          {
            ...(this.extensionVersion === null ? {} : { extension_version: this.extensionVersion }),
            civicrm_version: CIVICRM_RELEASES[this.store.civicrmVersion],
            timezone: this.store.timeZone,
            default_currency: this.settings.value('defaultCurrency'),
            locale: this.settings.value('lcMessages'),
            staff_permission_roles: this.staffPermissionRoles,
            permissions: Object.fromEntries(
              CHECKIN_INFO_PERMISSIONS.map((permission) => [
                permission,
                this.store.hasPermission(permission),
              ]),
            ),
          },
        ];
      default:
        return fail(`Api ${def.name} ${action} version 4 does not exist.`);
    }
  }

  /**
   * The extension's two link keys (its settings checkin_middleware_file_link_key and
   * checkin_middleware_staff_link_key), by the service's names for them. Unset (the default), the
   * imitated extension holds whatever key the service signs with, as its file route accepts every
   * link; set, `CheckinMiddleware.verifyKeys` checks signatures against them ('' for an empty setting).
   */
  extensionLinkKeys: Partial<Record<'FILE_LINK_KEY' | 'STAFF_LINK_KEY', string>> | null = null;

  /**
   * The roles holding *CiviCRM: open check-in staff report*, as `CheckinMiddleware.info` lists
   * them; `[]` imitates the permission gone from every role.
   */
  staffPermissionRoles: string[] = ['staff'];

  /** What info.xml of the imitated extension says; null imitates a release that reports none. */
  extensionVersion: string | null = CHECKIN_EXTENSION_VERSION;

  /** Civi/Api4/Action/CheckinMiddleware/VerifyKeys.php: HMAC-SHA256 hex of the message, per key. */
  private verifyLinkKeys(message: unknown, signatures: unknown): CrmRow {
    if (typeof message !== 'string' || !message.startsWith('checkin-middleware key probe\n'))
      fail('The message is not a key probe.');
    if (!isPlainObject(signatures)) fail('Parameter "signatures" must be an object.');
    const keys = this.extensionLinkKeys;
    return Object.fromEntries(
      Object.entries(signatures as Record<string, unknown>).map(([name, signature]) => {
        if (keys === null) return [name, 'match'];
        const key = keys[name as 'FILE_LINK_KEY'] ?? '';
        if (key.length < 32) return [name, 'unset'];
        const expected = createHmac('sha256', key)
          .update(message as string, 'utf8')
          .digest('hex');
        return [name, signature === expected ? 'match' : 'differs'];
      }),
    );
  }

  /** Makes every later checksum check for this contact also accept `checksum` as given. */
  setFixedChecksum(contactId: number, checksum: string): void {
    this.checksums.setFixedChecksum(contactId, checksum);
  }

  /** The id the next created record of `entity` gets (seeds use it for memorable ids). */
  setNextId(entity: EntityName, next: number): void {
    if (entity === 'RelationshipCache') fail('RelationshipCache has no ids of its own');
    const table = entity as TableName;
    const highest = Math.max(0, ...this.store.state.tables[table].keys());
    if (next <= highest) fail(`${entity} ids up to ${highest} are taken`);
    this.store.state.nextIds[table] = next;
  }

  /** Number of stored records, deleted ones included. */
  count(entity: EntityName): number {
    if (entity === 'CheckinMiddleware') return 0;
    return entity === 'RelationshipCache'
      ? this.catalog.relationshipCache().length
      : this.store.state.tables[entity].size;
  }

  snapshot(): ModelSnapshot {
    return { state: structuredClone(this.store.state) };
  }

  restore(snapshot: ModelSnapshot): void {
    this.store.state = structuredClone(snapshot.state as ModelState);
    this.catalog.forgetCustomFields();
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
