import { randomBytes } from 'node:crypto';
import { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { ALL_PERMISSIONS, Api4Error, type ApiUser, type CiviCrmVersion } from '../../index';
import { isPlainObject } from '../model/values';
import {
  API4_PREFIX,
  type EmulatorFault,
  type Form,
  MAX_BODY_BYTES,
  type Reply,
  type Route,
  V3_RESERVED,
} from './emulator-types';

/**
 * The emulator's HTTP plumbing: routes, request bodies and forms, parameters, and the replies CiviCRM sends.
 */

export const POST_ONLY = 'SECURITY: All requests that modify the database must be http POST, not GET.';

export function matchRoute(pathname: string): Route | undefined {
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
  if (checkin) return { kind: 'checkInFile', id: checkin[1] ?? null };
  if (pathname === '/civicrm' || pathname.startsWith('/civicrm/')) return { kind: 'page' };
  return undefined;
}

/** CiviCRM lets only actions named get* travel by GET. */
export function isReadAction(action: string): boolean {
  return action.toLowerCase().startsWith('get');
}

export async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
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
export async function parseForm(
  headers: IncomingHttpHeaders,
  body: Buffer,
  query: URLSearchParams,
): Promise<Form> {
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

export function parseParams(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new Api4Error(500, 'The params field is not valid JSON');
  }
}

export function safeParams(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  try {
    const parsed = JSON.parse(raw) as unknown;
    return isPlainObject(parsed) ? parsed : {};
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

export function parseBatch(raw: string | undefined): Array<[string, BatchCall]> | undefined {
  let parsed: unknown;
  try {
    parsed = raw === undefined ? undefined : (JSON.parse(raw) as unknown);
  } catch {
    return undefined;
  }
  if (!isPlainObject(parsed)) return undefined;
  const calls: Array<[string, BatchCall]> = [];
  for (const [key, value] of Object.entries(parsed)) {
    if (!Array.isArray(value) || typeof value[0] !== 'string' || typeof value[1] !== 'string')
      return undefined;
    calls.push([key, { entity: value[0], action: value[1], params: value[2], index: value[3] }]);
  }
  return calls;
}

/** A batch call's `index`: a number picks one row, a string keys the rows by that field. */
export function applyIndex(values: Array<Record<string, unknown>>, index: unknown): unknown {
  if (typeof index === 'number') return values[index] ?? null;
  if (typeof index === 'string') return Object.fromEntries(values.map((row) => [String(row[index]), row]));
  return values;
}

/** v3 params: loose form fields, overridden by the `json` object when it is one. */
export function v3Params(form: Form): Record<string, unknown> | undefined {
  const params: Record<string, unknown> = {};
  for (const [key, value] of form) if (!V3_RESERVED.has(key)) params[key] = value;
  const raw = form.get('json');
  if (raw === undefined || raw === '1') return params;
  try {
    const parsed = JSON.parse(raw) as unknown;
    return isPlainObject(parsed) ? { ...params, ...parsed } : params;
  } catch {
    return undefined;
  }
}

export function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.keys(headers).map((name) => [name.toLowerCase(), header(headers, name)]));
}

export function text(status: number, body: string): Reply {
  return { status, body, headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
}

export function json(status: number, body: unknown): Reply {
  return { status, body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } };
}

export function v3Json(envelope: unknown): Reply {
  // APIv3 answers 200 whatever happened; the envelope's is_error says how it went.
  return json(200, envelope);
}

/** What Standalone shows anonymous visitors of a page that needs a login. */
export const LOGIN_PAGE =
  '<!DOCTYPE html>\n<html lang="en" class="crm-standalone"><head><title>Log In</title></head><body>' +
  '<div class="messages status alert"><span class="msg-title">Please sign in.</span>' +
  '<span class="msg-text">You need to be logged in to access this page.</span></div></body></html>\n';

export const CSRF_MESSAGE = 'SECURITY ALERT: Ajax requests can only be issued by javascript clients';

/**
 * CiviCRM's APIv4 error body. A user allowed to see debug output (the admin) reads the real
 * message (6.14 adds an error_id); anyone else a generic sentence with an error id.
 */
export function errorBody(
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

/** APIv4's success envelope; `count` is the number of rows found, whatever `values`' shape. */
export function api4Envelope(entity: string, action: string, values: unknown, count: number) {
  return { values, entity, action, debug: null, version: 4, count, countFetched: count };
}

export function api4Error(error: Api4Error, user?: ApiUser, version: CiviCrmVersion = '6.14'): Reply {
  return json(error.status, errorBody(error, user, version));
}

/**
 * Whether PHP's json_decode would read this JSON text: JavaScript's parser takes an escaped lone
 * UTF-16 surrogate (`"\ud800"`), PHP's refuses the whole text ("Single unpaired UTF-16
 * surrogate").
 */
export function phpDecodes(raw: string | undefined): boolean {
  if (raw === undefined) return true;
  try {
    return wellFormed(JSON.parse(raw) as unknown);
  } catch {
    return true;
  }
}

/** A UTF-16 surrogate without its pair. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function wellFormed(value: unknown): boolean {
  if (typeof value === 'string') return !LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.every(wellFormed);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).every(([key, item]) => !LONE_SURROGATE.test(key) && wellFormed(item));
  }
  return true;
}

export function html(status: number, body: string): Reply {
  return { status, body, headers: { 'Content-Type': 'text/html; charset=UTF-8' } };
}

/** The shape of CiviCRM's fatal error page (CRM_Core_Error), message included. */
export function errorPage(message: string, baseUrl: string): string {
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
export function download(
  content: Buffer,
  mimeType: string | null,
  fileName: string,
  disposition: string,
): Reply {
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

export function cookie(headers: IncomingHttpHeaders, name: string): string | undefined {
  for (const part of header(headers, 'cookie').split(';')) {
    const [key = '', ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

export function faultReply(fault: EmulatorFault): Reply {
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
