import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Readable } from 'node:stream';
import { Agent, type Dispatcher, request } from 'undici';
import type { CrmCallObserver } from './crm-call-observer';
import type { CrmConnection } from '../config/app-config';
import {
  type Api4Call,
  type Api4CallResult,
  type Api4Params,
  CIVICRM_CHECKSUM_SHAPE,
  type CrmClient,
  type CrmRow,
} from './crm-client';
import { currentRequestId } from '../logging/request-context';
import { isPhpJsonReadable, unreadableCall } from './php-json';
import { CrmCallBatcher } from './crm-call-batcher';
import {
  authRefusalOf,
  type CrmAuthRefusal,
  CrmError,
  type CrmFailure,
  failureForStatus,
  normalizeV3Values,
} from './crm-errors';
import { CiviCrmUrls, withQuery } from './civicrm-urls';
import { encodeFileCreateForm, type NewCrmFile } from './file-create-form';

interface Api4Envelope {
  values: unknown[];
}

interface Api3Envelope {
  is_error: number;
  error_message?: string;
  values?: unknown;
}

/**
 * The live CiviCRM client (docs/civicrm-wire-protocol.md). Parameters travel as the form field `params`
 * holding a JSON string; read actions go as GET (query string), everything else as POST
 * (form body), getChecksum included. Every call has a timeout; reads are retried once on a
 * network error, writes never. Log lines name the call, the status and the time: never a header,
 * a parameter or a URL with a query, so no secret and no personal data reach the logs.
 *
 * Transport: undici's `request` over one keep-alive pool, not `fetch`: the WHATWG layer of fetch
 * cost about 2 ms of CPU per form load (five CRM calls) in profiles, more than everything else.
 */
export class CiviCrmHttpClient implements CrmClient, OnApplicationShutdown {
  private readonly logger = new Logger('CiviCRM');
  private readonly urls: CiviCrmUrls;
  readonly fileBaseUrl: string;
  readonly checksumShape = CIVICRM_CHECKSUM_SHAPE;
  private readonly headers: Record<string, string>;
  private readonly pool: Agent;
  private readonly batcher = new CrmCallBatcher(
    ([entity, action, params]) => this.single(entity, action, params),
    (calls) => this.batch(calls),
    currentRequestId,
  );

  constructor(
    private readonly connection: CrmConnection,
    /** Metrics (crm-call-observer.ts); the schema installer has none. */
    private readonly observer?: CrmCallObserver,
  ) {
    this.fileBaseUrl = connection.baseUrl;
    this.urls = new CiviCrmUrls(connection);
    this.headers = authenticationHeaders(connection);
    // Each pause is bounded here too; send() adds the deadline for the call as a whole.
    // A bounded set of kept-alive connections: calls beyond it wait here in arrival order
    // (docs/operations.md, "Connections to the CRM"), not in a busy CRM's accept queue, where a
    // burst of new connections is taken up one at a time and the unlucky ones time out.
    this.pool = new Agent({
      connections: connection.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
      connect: { timeout: connection.timeoutMs },
      headersTimeout: connection.timeoutMs,
      bodyTimeout: connection.timeoutMs,
      keepAliveTimeout: 10_000,
    });
    observer?.watchCrmConnections(() => this.callsWaitingForConnection());
  }

  /** Calls not yet sent because every connection is busy (undici's pool statistics). */
  private callsWaitingForConnection(): number {
    return Object.values(this.pool.stats).reduce(
      (sum, stats) => sum + ('pending' in stats ? stats.pending : 0),
      0,
    );
  }

  /** Idempotent: an application may be shut down by a signal and closed again. */
  async onApplicationShutdown(): Promise<void> {
    if (!this.pool.closed && !this.pool.destroyed) await this.pool.close();
  }

  /** Reads (and checksum checks) started together go out together, as one batch (CrmCallBatcher); writes alone. */
  api4<T extends CrmRow = CrmRow>(entity: string, action: string, params: Api4Params = {}): Promise<T[]> {
    if (BATCHED_ACTIONS.has(action)) return this.batcher.add<T>([entity, action, params]);
    return this.single<T>(entity, action, params);
  }

  /**
   * POST civicrm/ajax/api4 with `calls` (docs/civicrm-wire-protocol.md, "Batch"). CiviCRM answers
   * HTTP 200 when one call worked and the first error's status when none did, the answers keyed
   * as sent either way; each call's error becomes its own CrmError. Retried once on a network
   * error only when every call reads.
   */
  async batch(calls: Readonly<Record<string, Api4Call>>): Promise<Record<string, Api4CallResult>> {
    const names = Object.keys(calls);
    const unreadable = names.map((name) => calls[name] as Api4Call).find((call) => !isPhpJsonReadable(call));
    if (unreadable) throw unreadableCall(unreadable);
    const label = `batch(${names.map((name) => `${calls[name]?.[0]}.${calls[name]?.[1]}`).join(', ')})`;
    const encoded = JSON.stringify(
      Object.fromEntries(names.map((name) => [name, batchEntry(calls[name] as Api4Call)])),
    );
    const reads = names.every((name) => READ_ACTIONS.has(String(calls[name]?.[1])));
    const body = await this.send(
      label,
      this.urls.api4Batch(),
      {
        method: 'POST',
        body: new URLSearchParams({ calls: encoded }).toString(),
        headers: FORM_CONTENT_TYPE,
      },
      reads,
      true,
    );
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new CrmError('malformed', label, 'batch answer is not an object');
    }
    const results: Record<string, Api4CallResult> = {};
    for (const name of names) {
      const [entity, action] = calls[name] as Api4Call;
      results[name] = batchResult(`${entity}.${action}`, (body as Record<string, unknown>)[name]);
      const failed = results[name];
      if ('error' in failed) this.logger.warn(failed.error.message);
    }
    return results;
  }

  private async single<T extends CrmRow = CrmRow>(
    entity: string,
    action: string,
    params: Api4Params = {},
  ): Promise<T[]> {
    const call = `${entity}.${action}`;
    if (!isPhpJsonReadable(params)) throw unreadableCall([entity, action, params]);
    const isRead = READ_ACTIONS.has(action);
    const encoded = { params: JSON.stringify(params) };
    const url = this.urls.api4(entity, action);
    const outgoing: Outgoing = isRead
      ? { method: 'GET' }
      : { method: 'POST', body: new URLSearchParams(encoded).toString(), headers: FORM_CONTENT_TYPE };
    const body = await this.send(call, isRead ? withQuery(url, encoded) : url, outgoing, isRead);
    return api4Values<T>(call, body);
  }

  async createFile<T extends CrmRow = CrmRow>(file: NewCrmFile): Promise<T[]> {
    const call = 'File.create';
    const form = encodeFileCreateForm(file);
    const body = await this.send(
      call,
      this.urls.api4('File', 'create'),
      {
        method: 'POST',
        // A stream of the chunks with its length declared: sent as is, never joined into one buffer.
        body: Readable.from(form.chunks, { objectMode: false }),
        headers: {
          ...FORM_CONTENT_TYPE,
          'Content-Length': String(form.byteLength),
          // Asks the repository's CiviCRM extension to store the decoded bytes (civicrm-extension/).
          [CONTENT_ENCODING_HEADER]: 'base64',
        },
      },
      false,
    );
    return api4Values<T>(call, body);
  }

  async api3<T extends CrmRow = CrmRow>(
    entity: string,
    action: string,
    params: Record<string, unknown>,
  ): Promise<T[]> {
    const call = `v3 ${entity}.${action}`;
    const form = new URLSearchParams({ entity, action, json: JSON.stringify(params) });
    const isRead = action === 'get';
    const body = await this.send(
      call,
      this.urls.api3(),
      { method: 'POST', body: form.toString(), headers: FORM_CONTENT_TYPE },
      isRead,
    );
    if (!isApi3Envelope(body)) throw new CrmError('malformed', call, 'answer is not a v3 envelope');
    // APIv3 answers HTTP 200 even for errors: the envelope says whether the call worked.
    if (body.is_error) {
      throw new CrmError('rejected', call, 'the CRM reported an error (is_error)');
    }
    return normalizeV3Values<T>(body.values);
  }

  /**
   * CRM_TIMEOUT_MS is a deadline for the whole call, retry included: headers and every byte of
   * the body must arrive within it, so a CRM sending one byte a second cannot keep a request
   * open. An answer over CRM_MAX_ANSWER_BYTES is not read: the socket is dropped instead.
   */
  private async send(
    call: string,
    url: string,
    outgoing: Outgoing,
    retryable: boolean,
    /** A batch: an error status whose body holds the calls' own answers is read, not thrown. */
    perCallAnswers = false,
  ): Promise<unknown> {
    const started = performance.now();
    let outcome = 'ok';
    if (this.observer && this.callsWaitingForConnection() + this.callsRunning() >= this.maxConnections) {
      this.observer.crmConnectionWaited();
    }
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.connection.timeoutMs);
    try {
      const response = await this.requestWithRetry(call, url, outgoing, retryable, deadline.signal);
      const elapsed = Math.round(performance.now() - started);
      this.logger.debug(`${call} ${response.statusCode} in ${elapsed} ms`);
      if (response.statusCode < 200 || response.statusCode >= 300) {
        if (response.statusCode === 401) {
          // CiviCRM's 401s differ by reason (CrmAuthRefusal): each asks for another fix.
          const refusal = await authRefusal(response);
          throw new CrmError('unauthorized', call, `HTTP 401 (${refusal})`, 401, refusal);
        }
        const batchAnswer = perCallAnswers ? await readPerCallAnswers(response) : undefined;
        if (batchAnswer?.answers) return batchAnswer.answers;
        // Whether CiviCRM itself answered (its JSON envelope) or something in front of it; its
        // message is not kept: it can quote the values it refused.
        const envelope = batchAnswer ? batchAnswer.envelope : await isErrorEnvelope(response);
        throw new CrmError(
          failureForStatus(response.statusCode, envelope),
          call,
          `HTTP ${response.statusCode}`,
          response.statusCode,
        );
      }
      const text = await this.readAnswer(call, response);
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new CrmError('malformed', call, 'answer is not JSON', response.statusCode);
      }
    } catch (error) {
      if (error instanceof CrmError) {
        outcome = error.failure;
        this.logger.warn(error.message);
        throw error;
      }
      const failure: CrmFailure = deadline.signal.aborted || isTimeout(error) ? 'timeout' : 'unreachable';
      outcome = failure;
      const crmError = new CrmError(
        failure,
        call,
        failure === 'timeout' ? `no answer within ${this.connection.timeoutMs} ms` : 'network error',
      );
      this.logger.warn(crmError.message);
      throw crmError;
    } finally {
      clearTimeout(timer);
      this.observer?.crmCallFinished(call, (performance.now() - started) / 1000, outcome);
    }
  }

  private get maxConnections(): number {
    return this.connection.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  }

  private callsRunning(): number {
    return Object.values(this.pool.stats).reduce(
      (sum, stats) => sum + ('running' in stats ? stats.running : 0),
      0,
    );
  }

  /** The body as text, refusing (and dropping the connection of) an answer over the cap. */
  private async readAnswer(call: string, response: Dispatcher.ResponseData): Promise<string> {
    const limit = this.connection.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    const tooLarge = () => {
      response.body.destroy();
      return new CrmError('failed', call, `answer larger than ${limit} bytes`, response.statusCode);
    };
    const declared = Number(response.headers['content-length']);
    if (declared > limit) throw tooLarge();
    // A declared length within the cap is held to by undici (a longer body is an error), and
    // text() is the cheaper read; only a chunked answer needs counting.
    if (Number.isFinite(declared)) return response.body.text();
    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of response.body) {
      const bytes = chunk as Buffer;
      received += bytes.byteLength;
      if (received > limit) throw tooLarge();
      chunks.push(bytes);
    }
    return Buffer.concat(chunks, received).toString('utf8');
  }

  private async requestWithRetry(
    call: string,
    url: string,
    outgoing: Outgoing,
    retryable: boolean,
    signal: AbortSignal,
  ): Promise<Dispatcher.ResponseData> {
    try {
      return await this.requestOnce(url, outgoing, signal);
    } catch (error) {
      if (!retryable || isTimeout(error) || signal.aborted) throw error;
      this.logger.debug(`${call} network error, retrying once`);
      return this.requestOnce(url, outgoing, signal);
    }
  }

  private requestOnce(
    url: string,
    outgoing: Outgoing,
    signal: AbortSignal,
  ): Promise<Dispatcher.ResponseData> {
    return request(url, {
      method: outgoing.method,
      body: outgoing.body,
      headers: { ...this.headers, ...outgoing.headers },
      dispatcher: this.pool,
      signal,
    });
  }
}

interface Outgoing {
  method: 'GET' | 'POST';
  /** A stream only for writes: a retry would find it consumed, and writes are never retried. */
  body?: string | Readable;
  headers?: Record<string, string>;
}

/** The marker of the service's File.create calls that the CiviCRM extension decodes. */
export const CONTENT_ENCODING_HEADER = 'X-Checkin-Content-Encoding';

/** CRM_MAX_CONNECTIONS's default: above the few PHP workers a CiviCRM host runs (docs/operations.md). */
export const DEFAULT_MAX_CONNECTIONS = 8;

/** CRM_MAX_ANSWER_BYTES's default: far above any answer the service asks for. */
export const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

const FORM_CONTENT_TYPE = { 'Content-Type': 'application/x-www-form-urlencoded' };

/**
 * Actions that only read, sent as GET (and retried once on a network error). Every other action
 * is POST: getChecksum too, although CiviCRM's own GET rule would let its name through, because
 * it is called for its effect.
 */
const READ_ACTIONS: ReadonlySet<string> = new Set(['get', 'getFields', 'getActions']);

/**
 * What may join a batch of reads: the reads, and `validateChecksum`, which changes nothing (it
 * must be POST, and a batch always is). An owner's first request sends its checksum check with
 * its reads (docs/decisions.md, "Organization access"; OwnerAccessService.authorizeWith).
 */
const BATCHED_ACTIONS: ReadonlySet<string> = new Set([...READ_ACTIONS, 'validateChecksum']);

/**
 * X-Civi-Auth carries the API key for CiviCRM; when a webserver in front of the CRM demands
 * Basic Auth, Authorization carries that, and CiviCRM (which reads X-Civi-Auth first) ignores it.
 */
export function authenticationHeaders(
  connection: Pick<CrmConnection, 'apiKey' | 'siteKey' | 'basicAuth'>,
): Record<string, string> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
    'X-Civi-Auth': `Bearer ${connection.apiKey}`,
  };
  if (connection.siteKey) headers['X-Civi-Key'] = connection.siteKey;
  if (connection.basicAuth) {
    const { user, password } = connection.basicAuth;
    headers['Authorization'] = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }
  return headers;
}

/** Error answers worth reading; a longer body is not CiviCRM's envelope. */
const MAX_ERROR_BODY_BYTES = 16_384;

/** Which refusal a 401 answer is: its short text/plain body is read for the reason, then dropped. */
async function authRefusal(response: Dispatcher.ResponseData): Promise<CrmAuthRefusal> {
  const declared = Number(response.headers['content-length'] ?? 0);
  if (declared > MAX_ERROR_BODY_BYTES) {
    await response.body.dump();
    return 'other';
  }
  try {
    const text = await response.body.text();
    return text.length <= MAX_ERROR_BODY_BYTES ? authRefusalOf(text) : 'other';
  } catch {
    return 'other';
  }
}

/** Whether an error answer is CiviCRM's JSON error envelope (`error_message`), read and dropped. */
async function isErrorEnvelope(response: Dispatcher.ResponseData): Promise<boolean> {
  const declared = Number(response.headers['content-length'] ?? 0);
  const type = String(response.headers['content-type'] ?? '');
  if (!type.includes('json') || declared > MAX_ERROR_BODY_BYTES) {
    await response.body.dump();
    return false;
  }
  try {
    const text = await response.body.text();
    return text.length <= MAX_ERROR_BODY_BYTES && 'error_message' in (JSON.parse(text) as object);
  } catch {
    return false;
  }
}

const TIMEOUT_CODES: ReadonlySet<unknown> = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** By code, not instanceof: errors may come from another realm (jest's VM, for one). */
function isTimeout(error: unknown): boolean {
  return typeof error === 'object' && error !== null && TIMEOUT_CODES.has((error as { code?: unknown }).code);
}

/** A batch entry as CiviCRM's `calls` field holds it: [entity, action, params]. */
function batchEntry([entity, action, params]: Api4Call): unknown[] {
  return [entity, action, params ?? {}];
}

/** One call's part of a batch answer: its envelope, or its error envelope with its own status. */
function batchResult(call: string, answer: unknown): Api4CallResult {
  if (isApi4Envelope(answer)) return { rows: answer.values as CrmRow[] };
  if (typeof answer === 'object' && answer !== null && 'error_message' in answer) {
    const status = Number((answer as { status?: unknown }).status);
    const httpStatus = Number.isInteger(status) && status >= 400 ? status : 500;
    return {
      error: new CrmError(failureForStatus(httpStatus, true), call, `HTTP ${httpStatus}`, httpStatus),
    };
  }
  return { error: new CrmError('malformed', call, 'the batch answer has no envelope for this call') };
}

/**
 * A batch whose every call failed comes back with the first error's status and, in the body, each
 * call's error envelope: that body when it is one (small, JSON, an object of envelopes), and
 * otherwise whether the body was CiviCRM's own error envelope (as isErrorEnvelope tells).
 */
async function readPerCallAnswers(
  response: Dispatcher.ResponseData,
): Promise<{ answers?: object; envelope: boolean }> {
  const declared = Number(response.headers['content-length'] ?? 0);
  const type = String(response.headers['content-type'] ?? '');
  if (!type.includes('json') || declared > MAX_ERROR_BODY_BYTES) {
    await response.body.dump();
    return { envelope: false };
  }
  let parsed: unknown;
  try {
    const text = await response.body.text();
    if (text.length > MAX_ERROR_BODY_BYTES) return { envelope: false };
    parsed = JSON.parse(text) as unknown;
  } catch {
    return { envelope: false };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { envelope: false };
  // CiviCRM's error for the request as a whole (`error_message` at the top) is not per call.
  if ('error_message' in parsed) return { envelope: true };
  const entries = Object.values(parsed);
  const perCall = entries.length > 0 && entries.every((entry) => typeof entry === 'object' && entry !== null);
  return perCall ? { answers: parsed, envelope: true } : { envelope: false };
}

function api4Values<T>(call: string, body: unknown): T[] {
  if (!isApi4Envelope(body)) throw new CrmError('malformed', call, 'answer has no values list');
  return body.values as T[];
}

function isApi4Envelope(body: unknown): body is Api4Envelope {
  return typeof body === 'object' && body !== null && Array.isArray((body as Api4Envelope).values);
}

function isApi3Envelope(body: unknown): body is Api3Envelope {
  return typeof body === 'object' && body !== null && 'is_error' in body;
}
