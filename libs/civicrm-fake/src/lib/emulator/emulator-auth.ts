import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ALL_PERMISSIONS, ANONYMOUS_USER, Api4Error, type ApiUser, type CiviCrmModel } from '../../index';
import { safeEqual } from '../model/values';
import {
  type CiviCrmEmulatorOptions,
  DEFAULT_EMULATOR_LOGIN,
  type EmulatorLogin,
  type Form,
  type Identity,
  type Reply,
  SESSION_COOKIE,
} from './emulator-types';
import { POST_ONLY, api4Envelope, api4Error, cookie, header, json, safeParams, text } from './wire';

/**
 * Who a request to the emulator acts as: the gates CiviCRM puts before its API and pages
 * (docs/civicrm-wire-protocol.md), and the sessions Standalone's login form opens.
 */
export class EmulatorAuth {
  /** Logged-in sessions: cookie value → user. */
  private readonly sessions = new Map<string, ApiUser>();

  constructor(
    private readonly model: CiviCrmModel,
    private readonly options: Required<Pick<CiviCrmEmulatorOptions, 'apiKey'>> & CiviCrmEmulatorOptions,
  ) {}

  /** Every session logged out. */
  clearSessions(): void {
    this.sessions.clear();
  }

  /**
   * Who the request acts as, after the gates in CiviCRM's order: webserver Basic Auth, authx
   * (X-Civi-Auth; a wrong or malformed credential is a 401 even where a session exists), site
   * key, then the session cookie. No credential at all is an anonymous call, not a refusal.
   */
  identify(headers: IncomingHttpHeaders): Identity {
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
  login(method: string, form: Form): Reply {
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
    const envelope = (values: Record<string, unknown>) => api4Envelope('User', 'login', values, 1);
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
}
