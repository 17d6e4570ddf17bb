import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { previousKeyProblems } from './key-rotation';
import { secretProblems } from './secret-strength';
import { type Environment, REQUIRED_CRM_SETTINGS, SETTINGS } from './settings';

/**
 * The class class-validator checks, built from SETTINGS: each setting's rules become its
 * property's decorators and its default the property's initial value.
 */
class EnvironmentVariables {
  constructor() {
    const values = this as Record<string, unknown>;
    for (const setting of SETTINGS) {
      if ('default' in setting) values[setting.name] = setting.default;
    }
  }
}

for (const setting of SETTINGS) {
  // Decorators written on a property run from the last to the first.
  for (const rule of [...setting.rules].reverse()) rule(EnvironmentVariables.prototype, setting.name);
}

export class ConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigurationError';
  }
}

export function validateEnvironment(raw: Record<string, string | undefined>): Environment {
  const env = plainToInstance(EnvironmentVariables, raw, { exposeDefaultValues: true }) as Environment;
  const problems = validateSync(env, { skipMissingProperties: false, whitelist: false }).flatMap((error) =>
    Object.values(error.constraints ?? {}),
  );
  problems.push(...crmSettingProblems(env));
  problems.push(...previousKeyProblems(env as unknown as Record<string, unknown>));
  if (problems.length > 0) throw new ConfigurationError(problems);
  return env;
}

/**
 * Production needs every required CRM setting. Elsewhere all of them absent means stub mode,
 * and some of them absent is a mistake worth stopping for.
 */
function crmSettingProblems(env: Environment): string[] {
  const values = env as unknown as Record<string, string | undefined>;
  const missing = REQUIRED_CRM_SETTINGS.filter((name) => !values[name]);
  const problems: string[] = [];
  const partlySet = missing.length > 0 && missing.length < REQUIRED_CRM_SETTINGS.length;
  if (missing.length > 0 && (env.NODE_ENV === 'production' || partlySet)) {
    problems.push(
      ...missing.map((name) => `${name} is required${env.NODE_ENV === 'production' ? ' in production' : ''}`),
    );
  }
  if (Boolean(env.CRM_BASIC_AUTH_USER) !== Boolean(env.CRM_BASIC_AUTH_PASSWORD)) {
    problems.push('CRM_BASIC_AUTH_USER and CRM_BASIC_AUTH_PASSWORD must be set together');
  }
  if (env.NODE_ENV === 'production' && !env.UPLOAD_RECEIPT_KEY) {
    problems.push('UPLOAD_RECEIPT_KEY is required in production');
  }
  if (env.NODE_ENV === 'production' && !env.PUBLIC_BASE_URL) {
    // Without it, links mailed and shown to owners would point at http://localhost.
    problems.push(
      "PUBLIC_BASE_URL is required in production: set it to the service's public address, e.g. https://checkin.example.org",
    );
  }
  problems.push(...crmUrlProblems(env.CRM_BASE_URL, env.NODE_ENV === 'production'));
  if (env.NODE_ENV === 'production') problems.push(...secretProblems(values));
  return problems;
}

/**
 * A user name or password in CRM_BASE_URL would travel to staff browsers with the file links
 * (Basic Auth has its own settings); plain HTTP in production would send the API key in clear,
 * except to a CRM on the same host.
 */
export function crmUrlProblems(baseUrl: string | undefined, production: boolean): string[] {
  if (!baseUrl) return [];
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return [];
  }
  const problems: string[] = [];
  if (url.username || url.password) {
    problems.push(
      'CRM_BASE_URL must not contain a user name or password: use CRM_BASIC_AUTH_USER and CRM_BASIC_AUTH_PASSWORD',
    );
  }
  if (production && url.protocol === 'http:' && !isLoopback(url.hostname)) {
    problems.push('CRM_BASE_URL must use https:// in production (http:// only for a CRM on this host)');
  }
  return problems;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
