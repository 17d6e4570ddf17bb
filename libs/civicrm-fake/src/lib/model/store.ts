import { randomBytes } from 'node:crypto';
import {
  ADMIN_USER,
  ALL_PERMISSIONS,
  type ApiUser,
  type CallContext,
  type CiviCrmModelOptions,
  type CiviCrmVersion,
  type ModelState,
  type StoredRecord,
  TABLE_NAMES,
  type TableName,
} from './types';
import { formatInZone } from './values';

/**
 * What the model holds and the facts every collaborator reads: the entity tables and id
 * counters (`state`), the release and site it imitates, its clock, and the call being answered.
 * The collaborators (catalog, checksums, files, query, writes, v3) each receive this one store,
 * so a snapshot or restore of `state` is seen by all of them at once.
 */
export class ModelStore {
  baseUrl: string;
  readonly civicrmVersion: CiviCrmVersion;
  readonly extensionInstalled: boolean;
  /** The zone CiviCRM applies for the API user; a test may change it (setTimeZone). */
  timeZone: string;
  state: ModelState;
  /** True while the seed runs: a site set up long ago, whose names predate munging. */
  seeding = false;
  /** The call being answered (permissions, the service's marker header). */
  context: Required<Pick<CallContext, 'user'>> & CallContext = { user: ADMIN_USER };
  private readonly clock: () => Date;

  constructor(options: CiviCrmModelOptions) {
    this.baseUrl = (options.baseUrl ?? 'http://crm.invalid').replace(/\/+$/, '');
    this.civicrmVersion = options.civicrmVersion ?? '6.14';
    this.extensionInstalled = options.extensionInstalled ?? true;
    this.timeZone = options.timeZone ?? 'UTC';
    // An unknown zone fails here, not on the first dated write.
    formatInZone(new Date(0), this.timeZone);
    this.clock = options.now ?? (() => new Date());
    this.state = emptyState(options.secret ?? randomBytes(16).toString('hex'));
  }

  get is614(): boolean {
    return this.civicrmVersion === '6.14';
  }

  now(): Date {
    return this.clock();
  }

  /** Stored wall-clock values stay as they are when the zone changes, as in CiviCRM. */
  setTimeZone(zone: string): void {
    formatInZone(new Date(0), zone);
    this.timeZone = zone;
  }

  /** "Now" as the CRM's wall clock reads it, `YYYY-MM-DD HH:MM:SS`. */
  localNow(): string {
    return formatInZone(this.now(), this.timeZone);
  }

  /** Whether the acting user holds `permission` (the admin role holds every one). */
  hasPermission(permission: string, user: ApiUser = this.context.user): boolean {
    return user.permissions.includes(ALL_PERMISSIONS) || user.permissions.includes(permission);
  }

  /** Runs one API call as `context`'s user (an administrator when none is given). */
  asCaller<T>(context: CallContext, call: () => T): T {
    const previous = this.context;
    this.context = { ...context, user: context.user ?? ADMIN_USER };
    try {
      return call();
    } finally {
      this.context = previous;
    }
  }
}

function emptyState(secret: string): ModelState {
  const tables = {} as Record<TableName, Map<number, StoredRecord>>;
  const nextIds = {} as Record<TableName, number>;
  for (const name of TABLE_NAMES) {
    tables[name] = new Map();
    nextIds[name] = 1;
  }
  return { tables, nextIds, fixedChecksums: new Map(), settings: new Map(), secret };
}
