import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { Api4Error, CiviCrmModel, CrmFatalError, WRITE_ACTIONS, type ApiUser } from '../../index';
import { recordedCalls, takeFault } from './call-recording';
import { EmulatorAuth } from './emulator-auth';
import {
  CONTENT_ENCODING_HEADER,
  type CiviCrmEmulatorOptions,
  DEFAULT_EMULATOR_API_KEY,
  DEFAULT_SLOW_MS,
  type EmulatorFault,
  type Form,
  type PendingSleep,
  type RecordedCall,
  type Reply,
  type Route,
} from './emulator-types';
import {
  CSRF_MESSAGE,
  LOGIN_PAGE,
  POST_ONLY,
  api4Envelope,
  api4Error,
  applyIndex,
  download,
  errorBody,
  errorPage,
  faultReply,
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
  private readonly faults: EmulatorFault[] = [];
  private latencyMs: number;
  private readonly auth: EmulatorAuth;
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
    this.auth = new EmulatorAuth(model, options);
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
    this.faults.length = 0;
  }

  /** Back to the seeded data, no calls, no faults, no sessions, the latency it started with. */
  reset(): void {
    this.model.reset();
    this.auth.clearSessions();
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
    const records = recordedCalls(route, request, url, form);
    this.calls.push(...records);
    const limit = this.options.recordLimit;
    if (limit !== undefined && this.calls.length > limit) this.calls.splice(0, this.calls.length - limit);

    const fault = takeFault(this.faults, route.kind === 'v3' ? 3 : 4, records);
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
    const identity = this.auth.identify(request.headers);
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
      if (route.entity === 'User' && route.action === 'login') return this.auth.login(method, form);
      const context = {
        user: identity.user,
        contentEncoding: header(request.headers, CONTENT_ENCODING_HEADER),
      };
      return this.answerApi4(method, route.entity, route.action, form, context);
    }
    return this.answerBatch(method, form, identity.user);
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
      return api4Envelope(entity, action, indexed, values.length);
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
    const identity = this.auth.identify(request.headers);
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
