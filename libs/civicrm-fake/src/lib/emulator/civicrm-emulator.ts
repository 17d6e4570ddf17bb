import busboy from 'busboy';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ALL_PERMISSIONS,
  ANONYMOUS_USER,
  Api4Error,
  type ApiUser,
  CiviCrmModel,
  type CiviCrmVersion,
  type CiviCrmModelOptions,
  CrmFatalError,
  WRITE_ACTIONS,
} from '../../index';

/**
 * A CiviCRM over real HTTP for tests, benchmarks and the demo: the in-memory model behind the
 * wire protocol of docs/civicrm-wire-protocol.md (APIv4 single and batch calls, the APIv3 REST endpoint, the
 * authx and anti-CSRF gates, the 405 rule for writes by GET). It records every request and can
 * be told to misbehave (down, slow, errors, garbage) so the service's failure paths get tested.
 *
 * Plain node:http with no Nest dependency: it also runs alone (emulator.main.ts).
 */

export const DEFAULT_EMULATOR_API_KEY = 'emulator-api-key';

/** The back-office login the emulator accepts unless told otherwise (as the test CiviCRM's). */
export const DEFAULT_EMULATOR_LOGIN = { username: 'admin', password: 'admin123pass' } as const;

/** The header the service marks base64 File.create content with (the extension decodes it). */
export const CONTENT_ENCODING_HEADER = 'x-checkin-content-encoding';

/** Standalone's session cookie. */
export const SESSION_COOKIE = 'SESSCIVISO';

/** A back-office user who can log in (Standalone's User.login). */
export interface EmulatorLogin {
  username: string;
  password: string;
  /** Default: every permission (the admin role). */
  permissions?: readonly string[];
  contactId?: number;
}

export interface CiviCrmEmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  apiKey?: string;
  /** When set, `X-Civi-Key` must carry it. */
  siteKey?: string;
  /** When set, a webserver in front demands this Basic Auth before CiviCRM sees anything. */
  basicAuth?: { user: string; password: string };
  /**
   * Further API keys and their users' permissions (the `apiKey` above is an administrator);
   * e.g. a minimal API user to test permission refusals.
   */
  apiUsers?: Record<string, { permissions: readonly string[]; contactId?: number }>;
  /** Who may log in at User.login (default: DEFAULT_EMULATOR_LOGIN, an administrator). */
  logins?: readonly EmulatorLogin[];
  /** For the default model: the release to imitate (default '6.14'). */
  civicrmVersion?: CiviCrmVersion;
  /** For the default model: whether the repository's extension is installed (default true). */
  extensionInstalled?: boolean;
  /** For the default model: the CRM's time zone, IANA (default 'UTC'). */
  timeZone?: string;
  /** Defaults to `createModel` called with the three options above. */
  model?: CiviCrmModel;
  /**
   * Builds the default model. The seed is the caller's: the back end passes its demo data,
   * which follows its field configuration (docs/emulator.md). Defaults to a stock CiviCRM.
   */
  createModel?: (options: Omit<CiviCrmModelOptions, 'seed'>) => CiviCrmModel;
  latencyMs?: number;
  /** Keep only the newest this many recorded calls (default: every call), for long runs. */
  recordLimit?: number;
}

export interface RecordedCall {
  version: 3 | 4;
  method: string;
  path: string;
  entity: string;
  action: string;
  /** The call's parameters as CiviCRM would read them ({} when absent or unreadable). */
  params: Record<string, unknown>;
  /** Request headers, names lowercased. */
  headers: Record<string, string>;
  /** HTTP status answered; 0 while pending or when the socket was destroyed. */
  status: number;
  /** Arrival time, epoch milliseconds. */
  at: number;
  /** Key of the call within a batch request. */
  batchKey?: string;
}

export type EmulatorFaultKind = 'down' | 'slow' | 'http500' | 'http401' | 'malformed' | 'v3error';

export interface EmulatorFault {
  kind: EmulatorFaultKind;
  /** Only calls to this entity (any call of a batch counts). */
  entity?: string;
  action?: string;
  /** For 'slow': how long the answer takes (default 30 s). */
  delayMs?: number;
  /** How many requests it affects; unlimited when absent. */
  times?: number;
}

type Route =
  | { kind: 'api4'; entity: string; action: string }
  | { kind: 'batch' }
  | { kind: 'v3' }
  | { kind: 'file' }
  | { kind: 'checkinFile'; id: string | null }
  | { kind: 'page' };

/** Who a request acts as, after authx and the session. */
type Identity =
  | { kind: 'key'; user: ApiUser }
  | { kind: 'session'; user: ApiUser }
  | { kind: 'anonymous'; user: ApiUser }
  | { kind: 'refused'; reply: Reply };

interface Reply {
  status: number;
  body: string | Buffer;
  headers: Record<string, string>;
}

interface PendingSleep {
  timer: NodeJS.Timeout;
  resolve: () => void;
}

type Form = Map<string, string>;

const DEFAULT_SLOW_MS = 30_000;
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const API4_PREFIX = '/civicrm/ajax/api4';
/** v3 form fields that are not API parameters. */
const V3_RESERVED = new Set(['entity', 'action', 'json', 'q', 'key', 'api_key', 'version']);

export class CiviCrmEmulator {
  readonly calls: RecordedCall[] = [];
  readonly baseUrl: string;
  readonly port: number;
  private faults: EmulatorFault[] = [];
  private latencyMs: number;
  /** Logged-in sessions: cookie value → user. */
  private readonly sessions = new Map<string, ApiUser>();
  private readonly sleeps = new Set<PendingSleep>();
  private stopped = false;

  private constructor(
    private readonly server: Server,
    readonly model: CiviCrmModel,
    private readonly options: Required<Pick<CiviCrmEmulatorOptions, 'apiKey'>> & CiviCrmEmulatorOptions,
  ) {
    const address = server.address() as AddressInfo;
    const host =
      !options.host || options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
    this.port = address.port;
    this.baseUrl = `http://${host}:${address.port}`;
    this.latencyMs = options.latencyMs ?? 0;
    // Signed file URLs from Attachment.get and File joins point back at this emulator.
    model.baseUrl = this.baseUrl;
  }

  static async start(options: CiviCrmEmulatorOptions = {}): Promise<CiviCrmEmulator> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
    const model =
      options.model ??
      (options.createModel ?? ((modelOptions) => new CiviCrmModel(modelOptions)))({
        ...(options.civicrmVersion ? { civicrmVersion: options.civicrmVersion } : {}),
        ...(options.extensionInstalled === undefined
          ? {}
          : { extensionInstalled: options.extensionInstalled }),
        ...(options.timeZone ? { timeZone: options.timeZone } : {}),
      });
    const emulator = new CiviCrmEmulator(server, model, {
      ...options,
      apiKey: options.apiKey ?? DEFAULT_EMULATOR_API_KEY,
    });
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      emulator.handle(request, response).catch((error: unknown) => emulator.crash(response, error));
    });
    return emulator;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const sleep of this.sleeps) {
      clearTimeout(sleep.timer);
      sleep.resolve();
    }
    this.sleeps.clear();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  // --- recording, faults, latency ------------------------------------------------------------

  callsTo(entity: string, action?: string): RecordedCall[] {
    return this.calls.filter(
      (call) => call.entity === entity && (action === undefined || call.action === action),
    );
  }

  /** Every call that would change data (create/update/delete/save, File.create), refused or not. */
  writes(): RecordedCall[] {
    return this.calls.filter((call) => WRITE_ACTIONS.has(call.action));
  }

  clearCalls(): void {
    this.calls.length = 0;
  }

  setLatency(ms: number): void {
    this.latencyMs = ms;
  }

  injectFault(fault: EmulatorFault): void {
    this.faults.push({ ...fault });
  }

  clearFaults(): void {
    this.faults = [];
  }

  /** Back to the seeded data, no calls, no faults, no sessions, the latency it started with. */
  reset(): void {
    this.model.reset();
    this.sessions.clear();
    this.clearCalls();
    this.clearFaults();
    this.latencyMs = this.options.latencyMs ?? 0;
  }

  // --- request handling ------------------------------------------------------------------------

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://emulator.invalid');
    const route = matchRoute(url.pathname);
    if (!route) return this.send(response, text(404, 'Not Found'));
    if (route.kind === 'file' || route.kind === 'checkinFile' || route.kind === 'page') {
      return this.send(response, this.servePage(route, request, url));
    }

    const body = await readBody(request);
    if (body === undefined) return this.send(response, text(413, 'Payload Too Large'));
    const form = await parseForm(request.headers, body, url.searchParams);
    const records = this.record(route, request, url, form);

    const fault = this.takeFault(route.kind === 'v3' ? 3 : 4, records);
    if (fault?.kind === 'down') {
      request.socket.destroy();
      return;
    }
    if (fault?.kind === 'slow') await this.sleep(fault.delayMs ?? DEFAULT_SLOW_MS);
    const reply = fault && fault.kind !== 'slow' ? faultReply(fault) : this.answer(route, request, form);
    for (const call of records) call.status = reply.status;
    await this.sleep(this.latencyMs);
    return this.send(response, reply);
  }

  private answer(route: Route, request: IncomingMessage, form: Form): Reply {
    const identity = this.identify(request.headers);
    if (identity.kind === 'refused') return identity.reply;
    // The anti-CSRF gate guards cookie and anonymous calls; a bearer key passes without it.
    const csrf = identity.kind !== 'key' && header(request.headers, 'x-requested-with') !== 'XMLHttpRequest';
    if (route.kind === 'v3') {
      if (csrf) return v3Json({ is_error: 1, error_message: CSRF_MESSAGE });
      return this.answerV3(request, form, identity.user);
    }
    if (csrf) return json(400, { error_code: 400, error_message: `${CSRF_MESSAGE}, eg. CRM.api4().` });
    const method = request.method ?? 'GET';
    if (route.kind === 'api4') {
      if (route.entity === 'User' && route.action === 'login') return this.login(method, form);
      const context = {
        user: identity.user,
        contentEncoding: header(request.headers, CONTENT_ENCODING_HEADER),
      };
      return this.answerApi4(method, route.entity, route.action, form, context);
    }
    return this.answerBatch(method, form, identity.user);
  }

  /**
   * Who the request acts as, after the gates in CiviCRM's order: webserver Basic Auth, authx
   * (X-Civi-Auth; a wrong or malformed credential is a 401 even where a session exists), site
   * key, then the session cookie. No credential at all is an anonymous call, not a refusal.
   */
  private identify(headers: IncomingHttpHeaders): Identity {
    const { basicAuth, siteKey } = this.options;
    if (basicAuth) {
      const expected = `Basic ${Buffer.from(`${basicAuth.user}:${basicAuth.password}`).toString('base64')}`;
      if (!safeEqual(header(headers, 'authorization'), expected)) {
        const reply = text(401, 'Unauthorized');
        reply.headers['WWW-Authenticate'] = 'Basic realm="CiviCRM"';
        return { kind: 'refused', reply };
      }
    }
    const invalid: Identity = { kind: 'refused', reply: text(401, 'HTTP 401 Invalid credential') };
    // X-Civi-Auth first; without it authx also reads a bearer Authorization header.
    const authorization = header(headers, 'authorization');
    const auth = header(headers, 'x-civi-auth') || (authorization.startsWith('Bearer ') ? authorization : '');
    if (auth !== '') {
      const credential = /^Bearer (.+)$/.exec(auth)?.[1] ?? '';
      const user = this.apiKeyUser(credential);
      const siteKeyGiven = siteKey !== undefined && safeEqual(header(headers, 'x-civi-key'), siteKey);
      if (!user || (siteKey !== undefined && !siteKeyGiven)) return invalid;
      // authx's guards: the site key, or the permission to log in with an API key.
      if (!siteKeyGiven && !this.model.hasPermission('authenticate with api key', user)) {
        return {
          kind: 'refused',
          reply: text(401, 'HTTP 401 Login not permitted. Must satisfy guard (site_key, perm).'),
        };
      }
      return { kind: 'key', user };
    }
    const session = this.sessions.get(cookie(headers, SESSION_COOKIE) ?? '');
    if (session) return { kind: 'session', user: session };
    return { kind: 'anonymous', user: ANONYMOUS_USER };
  }

  private apiKeyUser(credential: string): ApiUser | undefined {
    if (credential === '') return undefined;
    if (safeEqual(credential, this.options.apiKey))
      return { contactId: null, permissions: [ALL_PERMISSIONS] };
    for (const [key, user] of Object.entries(this.options.apiUsers ?? {})) {
      if (safeEqual(credential, key))
        return { contactId: user.contactId ?? null, permissions: user.permissions };
    }
    return undefined;
  }

  /**
   * Standalone's login form posts APIv4 User.login: `identifier` and `password` on 6.14,
   * `username` and `password` on 5.81 (the other name is an unknown parameter there, HTTP 500).
   * A success sets the session cookie, a failure answers 200 with a public error.
   */
  private login(method: string, form: Form): Reply {
    const version = this.model.civicrmVersion;
    if (method !== 'POST') return api4Error(new Api4Error(405, POST_ONLY), ANONYMOUS_USER, version);
    const params = safeParams(form.get('params'));
    const nameParam = version === '6.14' ? 'identifier' : 'username';
    const accepted = [nameParam, 'password', 'originalUrl', 'mfaClass', 'mfaData'];
    if (version === '6.14') accepted.push('rememberMe', 'rememberJWT');
    const unknown = Object.keys(params).find((key) => !accepted.includes(key));
    if (unknown !== undefined) {
      const setter = `set${unknown.charAt(0).toUpperCase()}${unknown.slice(1)}`;
      return api4Error(new Api4Error(500, `Unknown api parameter: ${setter}`), ANONYMOUS_USER, version);
    }
    const logins: readonly EmulatorLogin[] = this.options.logins ?? [DEFAULT_EMULATOR_LOGIN];
    const match = logins.find(
      (login) =>
        typeof params[nameParam] === 'string' &&
        typeof params['password'] === 'string' &&
        safeEqual(params[nameParam], login.username) &&
        safeEqual(params['password'], login.password),
    );
    const envelope = (values: Record<string, unknown>) => ({
      values,
      entity: 'User',
      action: 'login',
      debug: null,
      version: 4,
      count: 1,
      countFetched: 1,
    });
    if (!match) return json(200, envelope({ publicError: 'Invalid credentials' }));
    const session = randomBytes(32).toString('hex');
    this.sessions.set(session, {
      contactId: match.contactId ?? null,
      permissions: match.permissions ?? [ALL_PERMISSIONS],
    });
    const reply = json(200, envelope({ url: version === '6.14' ? '/civicrm/home' : '/civicrm' }));
    reply.headers['Set-Cookie'] = `${SESSION_COOKIE}=${session}; path=/; HttpOnly`;
    return reply;
  }

  private answerApi4(
    method: string,
    entity: string,
    action: string,
    form: Form,
    context: { user: ApiUser; contentEncoding: string },
  ): Reply {
    if (method === 'GET' && !isReadAction(action)) {
      return api4Error(new Api4Error(405, POST_ONLY), context.user, this.model.civicrmVersion);
    }
    const result = this.runApi4(entity, action, form.get('params'), context);
    return 'values' in result ? json(200, result) : json(result.status, result);
  }

  /** One APIv4 call: an envelope, or CiviCRM's error body as the user may see it. */
  private runApi4(
    entity: string,
    action: string,
    rawParams: string | undefined,
    context: { user: ApiUser; contentEncoding?: string },
    index?: unknown,
  ) {
    try {
      const params = rawParams === undefined ? {} : parseParams(rawParams);
      const values = this.model.api4(entity, action, params, {
        user: context.user,
        ...(context.contentEncoding ? { contentEncoding: context.contentEncoding } : {}),
      });
      const indexed = applyIndex(values, index);
      return {
        values: indexed,
        entity,
        action,
        debug: null,
        version: 4,
        count: values.length,
        countFetched: values.length,
      };
    } catch (error) {
      const failure = error instanceof Api4Error ? error : new Api4Error(500, String(error));
      return errorBody(failure, context.user, this.model.civicrmVersion);
    }
  }

  private answerBatch(method: string, form: Form, user: ApiUser): Reply {
    const version = this.model.civicrmVersion;
    const calls = parseBatch(form.get('calls'));
    if (!calls) {
      return api4Error(
        new Api4Error(500, 'calls must be a JSON object of [entity, action, params]'),
        user,
        version,
      );
    }
    // CiviCRM's GET rule looks at the action in the path, which a batch has none of: always 405.
    if (method === 'GET') return api4Error(new Api4Error(405, POST_ONLY), user, version);
    const results: Record<string, unknown> = {};
    let firstErrorStatus: number | undefined;
    let anySuccess = false;
    for (const [key, call] of calls) {
      const result = this.runApi4(
        call.entity,
        call.action,
        JSON.stringify(call.params ?? {}),
        { user },
        call.index,
      );
      results[key] = result;
      if ('values' in result) anySuccess = true;
      else firstErrorStatus ??= result.status;
    }
    // HTTP 200 when at least one call worked (docs/civicrm-wire-protocol.md).
    return json(anySuccess || calls.length === 0 ? 200 : (firstErrorStatus ?? 500), results);
  }

  private answerV3(request: IncomingMessage, form: Form, user: ApiUser): Reply {
    if (!form.has('json')) {
      // Without `json`, CiviCRM's REST endpoint answers XML.
      return {
        status: 200,
        body: '<?xml version="1.0"?>\n<ResultSet><Result><is_error>1</is_error></Result></ResultSet>\n',
        headers: { 'Content-Type': 'text/xml' },
      };
    }
    // civicrm/ajax/rest is a page for users with "access CiviCRM": others get the login page.
    if (!this.model.hasPermission('access CiviCRM', user)) return html(403, LOGIN_PAGE);
    const entity = form.get('entity') ?? '';
    const action = form.get('action') ?? '';
    if (request.method === 'GET' && !isReadAction(action)) {
      return v3Json({ is_error: 1, error_message: POST_ONLY });
    }
    const params = v3Params(form);
    if (!params) return v3Json({ is_error: 1, error_message: 'Unable to decode supplied JSON.' });
    try {
      return v3Json(this.model.api3(entity, action, params, { user }));
    } catch (error) {
      if (!(error instanceof CrmFatalError)) throw error;
      // PHP died: 6.14 renders its fatal error page, 5.81 sends nothing.
      return this.model.civicrmVersion === '6.14'
        ? html(500, errorPage(error.message, this.baseUrl))
        : { status: 500, body: '', headers: { 'Content-Type': 'text/html; charset=UTF-8' } };
    }
  }

  /**
   * The back-office pages: `civicrm/file` (CRM_Core_Page_File), the extension's
   * `civicrm/checkin-file` and any other civicrm path. A user comes from an API key or the
   * session cookie; pages need "access CiviCRM", files also "access uploaded files".
   */
  private servePage(route: Route, request: IncomingMessage, url: URL): Reply {
    if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'Method Not Allowed');
    const identity = this.identify(request.headers);
    if (identity.kind === 'refused') return identity.reply;
    const user = identity.user;
    const may = (permission: string) => this.model.hasPermission(permission, user);
    const denied = html(
      403,
      user.permissions.length === 0
        ? LOGIN_PAGE
        : errorPage('You do not have permission to access this page.', this.baseUrl),
    );
    if (route.kind === 'checkinFile' && this.model.extensionInstalled) {
      if (!may('access CiviCRM') || !may('access uploaded files')) return denied;
      const fileId = Number(route.id ?? url.searchParams.get('id'));
      const file = Number.isInteger(fileId) && fileId > 0 ? this.model.getFile(fileId) : undefined;
      if (!file || file.uri === null) return text(404, 'Not Found');
      return download(file.content, file.mime_type, file.file_name ?? `file-${file.id}`, 'attachment');
    }
    if (!may('access CiviCRM')) return denied;
    if (route.kind !== 'file') return html(200, '<!DOCTYPE html><html><body>CiviCRM Home</body></html>');
    if (!may('access uploaded files')) return denied;
    const fcs = url.searchParams.get('fcs');
    // CiviCRM hands a missing signature to its JWT decoder, which dies: HTTP 500.
    if (fcs === null) return html(500, errorPage('URL for file is not valid', this.baseUrl));
    const fileId = Number(url.searchParams.get('id'));
    const file = Number.isInteger(fileId) ? this.model.getFile(fileId) : undefined;
    const signed = this.model.verifyFileSignature(fileId, fcs, url.searchParams.get('eid'));
    // statusBounce: back to the front page, whatever went wrong (bad link, missing or empty file).
    if (!file || !signed || file.content.byteLength === 0) {
      return { status: 302, body: '', headers: { Location: `${this.baseUrl}/` } };
    }
    const disposition = url.searchParams.get('download') === '0' ? 'inline' : 'download';
    return download(file.content, file.mime_type, file.file_name ?? `file-${file.id}`, disposition);
  }

  // --- recording ------------------------------------------------------------------------------

  private record(
    route: Exclude<Route, { kind: 'file' | 'checkinFile' | 'page' }>,
    request: IncomingMessage,
    url: URL,
    form: Form,
  ): RecordedCall[] {
    const base = {
      method: request.method ?? 'GET',
      path: url.pathname,
      headers: flattenHeaders(request.headers),
      status: 0,
      at: Date.now(),
    };
    let records: RecordedCall[];
    if (route.kind === 'api4') {
      records = [
        {
          ...base,
          version: 4,
          entity: route.entity,
          action: route.action,
          params: safeParams(form.get('params')),
        },
      ];
    } else if (route.kind === 'batch') {
      const calls = parseBatch(form.get('calls')) ?? [];
      records = calls.map(([batchKey, call]) => ({
        ...base,
        version: 4 as const,
        entity: call.entity,
        action: call.action,
        params: isRecord(call.params) ? call.params : {},
        batchKey,
      }));
      if (records.length === 0) records = [{ ...base, version: 4, entity: '', action: '', params: {} }];
    } else {
      records = [
        {
          ...base,
          version: 3,
          entity: form.get('entity') ?? '',
          action: form.get('action') ?? '',
          params: v3Params(form) ?? {},
        },
      ];
    }
    this.calls.push(...records);
    const limit = this.options.recordLimit;
    if (limit !== undefined && this.calls.length > limit) this.calls.splice(0, this.calls.length - limit);
    return records;
  }

  private takeFault(version: 3 | 4, records: RecordedCall[]): EmulatorFault | undefined {
    const fault = this.faults.find(
      (candidate) =>
        (candidate.kind !== 'v3error' || version === 3) &&
        records.some(
          (call) =>
            (candidate.entity === undefined || candidate.entity === call.entity) &&
            (candidate.action === undefined || candidate.action === call.action),
        ),
    );
    if (fault?.times !== undefined) {
      fault.times -= 1;
      if (fault.times <= 0) this.faults = this.faults.filter((candidate) => candidate !== fault);
    }
    return fault;
  }

  // --- plumbing -------------------------------------------------------------------------------

  private sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const pending: PendingSleep = {
        resolve,
        timer: setTimeout(() => {
          this.sleeps.delete(pending);
          resolve();
        }, ms),
      };
      this.sleeps.add(pending);
    });
  }

  private send(response: ServerResponse, reply: Reply): void {
    if (this.stopped || response.destroyed || response.headersSent) return;
    response.writeHead(reply.status, { ...reply.headers, 'Content-Length': Buffer.byteLength(reply.body) });
    response.end(reply.body);
  }

  private crash(response: ServerResponse, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.send(
      response,
      json(500, { error_code: 0, error_message: `Emulator failure: ${message}`, status: 500 }),
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

const POST_ONLY = 'SECURITY: All requests that modify the database must be http POST, not GET.';

function matchRoute(pathname: string): Route | undefined {
  if (pathname === API4_PREFIX || pathname === `${API4_PREFIX}/`) return { kind: 'batch' };
  if (pathname.startsWith(`${API4_PREFIX}/`)) {
    const [entity, action, ...rest] = pathname.slice(API4_PREFIX.length + 1).split('/');
    if (!entity || !action || rest.length > 0) return undefined;
    return { kind: 'api4', entity: decodeURIComponent(entity), action: decodeURIComponent(action) };
  }
  if (pathname === '/civicrm/ajax/rest') return { kind: 'v3' };
  if (pathname === '/civicrm/file') return { kind: 'file' };
  // The extension's route takes the id as `?id=N` or as the last segment.
  const checkin = /^\/civicrm\/checkin-file(?:\/([^/]+))?\/?$/.exec(pathname);
  if (checkin) return { kind: 'checkinFile', id: checkin[1] ?? null };
  if (pathname === '/civicrm' || pathname.startsWith('/civicrm/')) return { kind: 'page' };
  return undefined;
}

/** CiviCRM lets only actions named get* travel by GET. */
function isReadAction(action: string): boolean {
  return action.toLowerCase().startsWith('get');
}

async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.byteLength;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The request's form fields as PHP's $_REQUEST sees them: query string, overridden by an
 * urlencoded or multipart body. Any other body (raw JSON included) is not read at all.
 */
async function parseForm(headers: IncomingHttpHeaders, body: Buffer, query: URLSearchParams): Promise<Form> {
  const form: Form = new Map(query);
  const type = (headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) {
    for (const [key, value] of new URLSearchParams(body.toString('utf8'))) form.set(key, value);
  } else if (type.startsWith('multipart/form-data')) {
    for (const [key, value] of await multipartFields(headers, body)) form.set(key, value);
  }
  return form;
}

function multipartFields(headers: IncomingHttpHeaders, body: Buffer): Promise<Array<[string, string]>> {
  return new Promise((resolve) => {
    const fields: Array<[string, string]> = [];
    try {
      const parser = busboy({ headers });
      parser.on('field', (name, value) => fields.push([name, value]));
      parser.on('file', (_name, stream) => stream.resume());
      parser.on('close', () => resolve(fields));
      parser.on('error', () => resolve(fields));
      parser.end(body);
    } catch {
      resolve(fields);
    }
  });
}

function parseParams(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new Api4Error(500, 'The params field is not valid JSON');
  }
}

function safeParams(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  try {
    const parsed = JSON.parse(raw) as unknown;
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

interface BatchCall {
  entity: string;
  action: string;
  params: unknown;
  index: unknown;
}

function parseBatch(raw: string | undefined): Array<[string, BatchCall]> | undefined {
  let parsed: unknown;
  try {
    parsed = raw === undefined ? undefined : (JSON.parse(raw) as unknown);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed)) return undefined;
  const calls: Array<[string, BatchCall]> = [];
  for (const [key, value] of Object.entries(parsed)) {
    if (!Array.isArray(value) || typeof value[0] !== 'string' || typeof value[1] !== 'string')
      return undefined;
    calls.push([key, { entity: value[0], action: value[1], params: value[2], index: value[3] }]);
  }
  return calls;
}

/** A batch call's `index`: a number picks one row, a string keys the rows by that field. */
function applyIndex(values: Array<Record<string, unknown>>, index: unknown): unknown {
  if (typeof index === 'number') return values[index] ?? null;
  if (typeof index === 'string') return Object.fromEntries(values.map((row) => [String(row[index]), row]));
  return values;
}

/** v3 params: loose form fields, overridden by the `json` object when it is one. */
function v3Params(form: Form): Record<string, unknown> | undefined {
  const params: Record<string, unknown> = {};
  for (const [key, value] of form) if (!V3_RESERVED.has(key)) params[key] = value;
  const raw = form.get('json');
  if (raw === undefined || raw === '1') return params;
  try {
    const parsed = JSON.parse(raw) as unknown;
    return isRecord(parsed) ? { ...params, ...parsed } : params;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.keys(headers).map((name) => [name.toLowerCase(), header(headers, name)]));
}

function safeEqual(actual: string, expected: string): boolean {
  const a = Buffer.from(actual);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function text(status: number, body: string): Reply {
  return { status, body, headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
}

function json(status: number, body: unknown): Reply {
  return { status, body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } };
}

function v3Json(envelope: unknown): Reply {
  // APIv3 answers 200 whatever happened; the envelope's is_error says how it went.
  return json(200, envelope);
}

/** What Standalone shows anonymous visitors of a page that needs a login. */
const LOGIN_PAGE =
  '<!DOCTYPE html>\n<html lang="en" class="crm-standalone"><head><title>Log In</title></head><body>' +
  '<div class="messages status alert"><span class="msg-title">Please sign in.</span>' +
  '<span class="msg-text">You need to be logged in to access this page.</span></div></body></html>\n';

const CSRF_MESSAGE = 'SECURITY ALERT: Ajax requests can only be issued by javascript clients';

/**
 * CiviCRM's APIv4 error body. A user allowed to see debug output (the admin) reads the real
 * message (6.14 adds an error_id); anyone else a generic sentence with an error id.
 */
function errorBody(
  error: Api4Error,
  user: ApiUser | undefined,
  version: CiviCrmVersion,
): { error_code: number | string; error_message: string; status: number; error_id?: string } {
  const errorId = () => [0, 1, 2].map(() => randomBytes(3).toString('base64url').slice(0, 4)).join('-');
  const debug =
    !user || user.permissions.includes(ALL_PERMISSIONS) || user.permissions.includes('view debug output');
  if (!debug) {
    return {
      error_code: '1',
      error_message: `Sorry an error occurred and your request was not completed. (Error ID: ${errorId()})`,
      status: error.status,
    };
  }
  return {
    ...(version === '6.14' ? { error_id: errorId() } : {}),
    error_code: error.errorCode,
    error_message: error.message,
    status: error.status,
  };
}

function api4Error(error: Api4Error, user?: ApiUser, version: CiviCrmVersion = '6.14'): Reply {
  return json(error.status, errorBody(error, user, version));
}

function html(status: number, body: string): Reply {
  return { status, body, headers: { 'Content-Type': 'text/html; charset=UTF-8' } };
}

/** The shape of CiviCRM's fatal error page (CRM_Core_Error), message included. */
function errorPage(message: string, baseUrl: string): string {
  const escaped = message.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
  return (
    '<!DOCTYPE html>\n<html lang="en"><head><title>Error</title></head><body>' +
    '<div id="crm-container" class="crm-container"><div class="crm-fatal"><div class="crm-fatal-messages">' +
    `<div class="crm-section crm-error-message">${escaped}</div>` +
    `<div class="crm-section crm-return-to-home"><a class="btn" href="${baseUrl}/">Return home</a></div>` +
    '</div></div></div></body></html>\n'
  );
}

/** CRM_Utils_System::download. */
function download(content: Buffer, mimeType: string | null, fileName: string, disposition: string): Reply {
  return {
    status: 200,
    body: content,
    headers: {
      'Content-Type': mimeType ?? 'application/octet-stream',
      'Content-Disposition': `${disposition}; filename="${fileName.replace(/["\\\r\n]/g, '_')}"`,
      'Cache-Control': 'no-store, no-cache, must-revalidate',
    },
  };
}

function cookie(headers: IncomingHttpHeaders, name: string): string | undefined {
  for (const part of header(headers, 'cookie').split(';')) {
    const [key = '', ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function faultReply(fault: EmulatorFault): Reply {
  switch (fault.kind) {
    case 'http500':
      // A CRM that crashed: PHP's error page, not CiviCRM's JSON envelope (an outage, not a refusal).
      return {
        status: 500,
        body: '<html><body><h1>Internal Server Error</h1></body></html>',
        headers: { 'Content-Type': 'text/html' },
      };
    case 'http401':
      return text(401, 'HTTP 401 Invalid credential');
    case 'malformed':
      return {
        status: 200,
        body: '<html><body>Site under maintenance</body></html>',
        headers: { 'Content-Type': 'text/html' },
      };
    case 'v3error':
      return v3Json({ is_error: 1, error_message: 'Injected fault' });
    case 'down':
    case 'slow':
      return api4Error(new Api4Error(500, `Fault ${fault.kind} has no reply of its own`));
  }
}
