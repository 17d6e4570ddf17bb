import { CrmError } from './crm-errors';
import type { NewCrmFile } from './file-create-form';

/**
 * The one way feature code reaches CiviCRM. Two implementations: the live HTTP client
 * (CiviCrmHttpClient) and the in-memory model used in stub mode (InMemoryCrmClient), so stub
 * mode runs exactly the route logic that production runs.
 *
 * Implementations own URL building, authentication, timeouts, envelopes and error mapping;
 * callers get plain rows or a CrmError.
 */
export type Api4Operator =
  | '='
  | '!='
  | '<>'
  | '>'
  | '>='
  | '<'
  | '<='
  | 'IN'
  | 'NOT IN'
  | 'LIKE'
  | 'NOT LIKE'
  | 'CONTAINS'
  | 'NOT CONTAINS'
  | 'IS EMPTY'
  | 'IS NOT EMPTY'
  | 'IS NULL'
  | 'IS NOT NULL'
  | 'BETWEEN';

export type Api4Condition =
  [field: string, operator: Api4Operator, value?: unknown] | ['OR' | 'AND' | 'NOT', Api4Condition[]];

export interface Api4Params {
  select?: string[];
  where?: Api4Condition[];
  orderBy?: Record<string, 'ASC' | 'DESC'>;
  limit?: number;
  offset?: number;
  values?: Record<string, unknown>;
  /** Any other action parameter (e.g. contactId and checksum for validateChecksum). */
  [parameter: string]: unknown;
}

export type CrmRow = Record<string, unknown>;

/** One call of an APIv4 batch: entity, action and parameters, as CiviCRM's `calls` field holds it. */
export type Api4Call = readonly [entity: string, action: string, params?: Api4Params];

/** What one call of a batch answered: its rows, or the error it alone failed with. */
export type Api4CallResult<T extends CrmRow = CrmRow> = { rows: T[] } | { error: CrmError };

export type { NewCrmFile };

/**
 * CiviCRM's checksums (CRM_Contact_BAO_Contact_Utils::generateChecksum): an md5 hex hash, the Unix
 * time it was made and its lifetime in hours or `inf`, joined by `_`.
 */
export const CIVICRM_CHECKSUM_SHAPE = /^[0-9a-f]{32}_\d{1,20}_(?:\d{1,10}|inf)$/;

export interface CrmClient {
  /**
   * The address signed file URLs start with: CRM_BASE_URL for the live client, the model's own
   * (reserved `.invalid`) address in stub mode, null when the client has none.
   */
  readonly fileBaseUrl: string | null;
  /**
   * The shape of every checksum this CRM issues: a link whose checksum has another shape is a wrong
   * one, refused (and counted) before the CRM is asked (docs/decisions.md, "Checksums").
   */
  readonly checksumShape: RegExp;
  /** One APIv4 call; `get*` actions travel as GET, every other action as POST. */
  api4<T extends CrmRow = CrmRow>(entity: string, action: string, params?: Api4Params): Promise<T[]>;
  /**
   * Several APIv4 calls in one request (docs/civicrm-wire-protocol.md, "Batch"): CiviCRM runs
   * them one after another, in the order given, and answers each under its name. A call that
   * fails fails alone; a failure of the request itself (timeout, 401, network) fails every call.
   */
  batch(calls: Readonly<Record<string, Api4Call>>): Promise<Record<string, Api4CallResult>>;
  /** One APIv3 call through civicrm/ajax/rest; `values` normalized to an array. */
  api3<T extends CrmRow = CrmRow>(
    entity: string,
    action: string,
    params: Record<string, unknown>,
  ): Promise<T[]>;
  /**
   * APIv4 File.create of a file record linked to nothing, `bytes` sent base64-encoded as
   * `values.content`. Its own method because the bytes are encoded for the wire without ever
   * becoming one large JSON string (see encodeFileCreateForm).
   */
  createFile<T extends CrmRow = CrmRow>(file: NewCrmFile): Promise<T[]>;
}

export const CRM_CLIENT = Symbol('CRM_CLIENT');

/**
 * A batch answered call by call through `api4`: for clients where a request costs nothing
 * (the in-memory model, test doubles), with the same per-call results as a real batch.
 */
export async function batchOneByOne(
  client: Pick<CrmClient, 'api4'>,
  calls: Readonly<Record<string, Api4Call>>,
): Promise<Record<string, Api4CallResult>> {
  const results: Record<string, Api4CallResult> = {};
  for (const [name, [entity, action, params]] of Object.entries(calls)) {
    try {
      results[name] = { rows: await client.api4(entity, action, params) };
    } catch (error) {
      if (!(error instanceof CrmError)) throw error;
      results[name] = { error };
    }
  }
  return results;
}
