import { randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo } from 'node:net';
import {
  ALL_PERMISSIONS,
  ANONYMOUS_USER,
  Api4Error,
  CiviCrmModel,
  CrmFatalError,
  WRITE_ACTIONS,
  type ApiUser,
} from '../../index';
import { isPlainObject, safeEqual } from '../model/values';
import {
  CONTENT_ENCODING_HEADER,
  type CiviCrmEmulatorOptions,
  DEFAULT_EMULATOR_API_KEY,
  DEFAULT_EMULATOR_LOGIN,
  DEFAULT_SLOW_MS,
  type EmulatorFault,
  type EmulatorLogin,
  type Form,
  type Identity,
  type PendingSleep,
  type RecordedCall,
  type Reply,
  type Route,
  SESSION_COOKIE,
} from './emulator-types';
import {
  CSRF_MESSAGE,
  LOGIN_PAGE,
  POST_ONLY,
  api4Error,
  applyIndex,
  cookie,
  download,
  errorBody,
  errorPage,
  faultReply,
  flattenHeaders,
  header,
  html,
  isReadAction,
  json,
  matchRoute,
  readBody,
  parseBatch,
  parseForm,
  parseParams,
  phpDecodes,
  safeParams,
  text,
  v3Json,
  v3Params,
} from './wire';

/**
 * A CiviCRM over real HTTP for tests, benchmarks and the demo: the in-memory model behind the
 * wire protocol of docs/civicrm-wire-protocol.md (APIv4 single and batch calls, the APIv3 REST endpoint, the
 * authx and anti-CSRF gates, the 405 rule for writes by GET). It records every request and can
 * be told to misbehave (down, slow, errors, garbage) so the service's failure paths get tested.
 *
 * Plain node:http with no Nest dependency: it also runs alone (emulator-cli.ts, which the back end's
 * emulator.main.ts starts with its demo data).
 */

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
        ...(options.settings ? { settings: options.settings } : {}),
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
    if (route.kind === 'file' || route.kind === 'checkInFile' || route.kind === 'page') {
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
    const answerBytes = Buffer.byteLength(reply.body);
    for (const call of records) Object.assign(call, { status: reply.status, answerBytes });
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
    // CiviCRM cannot decode the parameters: its fatal error page (measured on 6.14).
    if (!phpDecodes(form.get('params'))) return html(500, errorPage('Invalid JSON', ''));
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
    // One call CiviCRM's JSON decoder refuses fails the whole batch: 6.14 answers its fatal error
    // page, 5.81 an empty answer (docs/civicrm-wire-protocol.md, "Batch").
    if (!phpDecodes(form.get('calls'))) {
      return version === '6.14' ? html(500, errorPage('Invalid JSON', '')) : json(200, []);
    }
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
    if (route.kind === 'checkInFile' && this.model.extensionInstalled) {
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
    route: Exclude<Route, { kind: 'file' | 'checkInFile' | 'page' }>,
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
        params: isPlainObject(call.params) ? call.params : {},
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
