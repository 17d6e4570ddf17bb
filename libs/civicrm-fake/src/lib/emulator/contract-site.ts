import { CiviCrmModel, type CiviCrmVersion } from '../../index';
import { CiviCrmEmulator } from './civicrm-emulator';
import { DEFAULT_EMULATOR_LOGIN } from './emulator-types';

/**
 * The site the contract specs (`*contract*.spec.ts` in this folder) talk to: the emulator, and the
 * real CiviCRMs CIVICRM_CONTRACT_TARGETS names, so each expectation is checked against both, e.g.
 *   CIVICRM_CONTRACT_TARGETS=6.14=http://127.0.0.1:8400,5.81=http://127.0.0.1:8410
 *   CIVICRM_CONTRACT_API_KEY=<admin key>  CIVICRM_CONTRACT_LOGIN=admin:<password>
 *   CIVICRM_CONTRACT_TIMEZONE=UTC (or America/Chicago: the real sites' PHP date.timezone)
 * Each flow creates its own throwaway records there, named with a random suffix.
 */

/** The time zones whose dates the contract flows know. */
export type ContractZone = 'UTC' | 'America/Chicago';

export interface ContractTarget {
  label: string;
  version: CiviCrmVersion;
  /** The CiviCRM's time zone (PHP's date.timezone). */
  timeZone: ContractZone;
  baseUrl: string;
  apiKey: string;
  login: { username: string; password: string };
}

export interface ContractAnswer {
  status: number;
  contentType: string;
  text: string;
  /** The session cookie a login set (`name=value`), if any. */
  cookie: string;
}

export type Row = Record<string, unknown>;

/** A form POST as the service sends it, signed with the target's key unless headers say otherwise. */
export async function call(
  target: ContractTarget,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = { 'X-Civi-Auth': `Bearer ${target.apiKey}` },
): Promise<ContractAnswer> {
  const response = await fetch(`${target.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'X-Requested-With': 'XMLHttpRequest', ...headers },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
  return {
    status: response.status,
    contentType: (response.headers.get('content-type') ?? '').split(';')[0] ?? '',
    text: await response.text(),
    cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
  };
}

/** One APIv4 call: its rows, its error message if it failed, and the raw answer. */
export async function api4(
  target: ContractTarget,
  entity: string,
  action: string,
  params: unknown,
  headers?: Record<string, string>,
): Promise<{ status: number; rows: Row[]; error?: string; answer: ContractAnswer }> {
  const answer = await call(
    target,
    `/civicrm/ajax/api4/${entity}/${action}`,
    { params: JSON.stringify(params) },
    headers,
  );
  let body: { values?: Row[]; error_message?: string } = {};
  try {
    body = JSON.parse(answer.text) as typeof body;
  } catch {
    // Not JSON: the digest records the status and content type.
  }
  return {
    status: answer.status,
    rows: Array.isArray(body.values) ? body.values : [],
    ...(body.error_message === undefined ? {} : { error: body.error_message }),
    answer,
  };
}

/** An APIv4 call a flow relies on: its rows, or an error naming the call that failed. */
export async function api4Rows(
  target: ContractTarget,
  entity: string,
  action: string,
  params: unknown,
): Promise<Row[]> {
  const answer = await api4(target, entity, action, params);
  if (answer.error !== undefined || answer.status !== 200) {
    throw new Error(`${entity}.${action}: ${answer.error ?? `HTTP ${answer.status}`}`);
  }
  return answer.rows;
}

/** Real CiviCRMs named in the environment, if any. */
export function realTargets(): ContractTarget[] {
  const spec = process.env['CIVICRM_CONTRACT_TARGETS'];
  if (!spec) return [];
  const [username = 'admin', password = ''] = (process.env['CIVICRM_CONTRACT_LOGIN'] ?? '').split(':');
  const timeZone = process.env['CIVICRM_CONTRACT_TIMEZONE'] ?? 'UTC';
  if (timeZone !== 'UTC' && timeZone !== 'America/Chicago') {
    throw new Error('CIVICRM_CONTRACT_TIMEZONE: UTC or America/Chicago');
  }
  return spec.split(',').map((entry) => {
    const [version = '', baseUrl = ''] = entry.split('=');
    if (version !== '6.14' && version !== '5.81')
      throw new Error(`CIVICRM_CONTRACT_TARGETS: unknown version ${version}`);
    return {
      label: `real CiviCRM ${version} at ${baseUrl} (${timeZone})`,
      version,
      timeZone,
      baseUrl: baseUrl.replace(/\/+$/, ''),
      apiKey: process.env['CIVICRM_CONTRACT_API_KEY'] ?? '',
      login: { username, password },
    };
  });
}

/**
 * Runs a flow against a fresh emulated site, as civicrm.sh installs one (no demo data, no
 * extension), and stops the emulator afterwards whatever the flow did.
 */
export async function onEmulatedSite<T>(
  version: CiviCrmVersion,
  timeZone: ContractZone,
  flow: (target: ContractTarget) => Promise<T>,
): Promise<T> {
  const apiKey = `contract-key-${version}-0123456789`;
  const emulator = await CiviCrmEmulator.start({
    apiKey,
    model: new CiviCrmModel({ civicrmVersion: version, extensionInstalled: false, timeZone }),
  });
  try {
    return await flow({
      label: `emulator ${version}`,
      version,
      timeZone,
      baseUrl: emulator.baseUrl,
      apiKey,
      login: { ...DEFAULT_EMULATOR_LOGIN },
    });
  } finally {
    await emulator.stop();
  }
}

/**
 * The real CiviCRMs' half of a contract spec: one test per named target, or one skipped test
 * saying none was named (so a run without targets shows the check exists).
 */
export function itOnRealTargets(
  name: string,
  check: (target: ContractTarget) => Promise<void>,
  timeoutMs?: number,
): void {
  const real = realTargets();
  (real.length > 0
    ? it.each(real.map((target) => [target.label, target] as const))
    : it.skip.each([['none', null]]))(
    `${name}: %s`,
    async (_label, target) => {
      if (target) await check(target);
    },
    timeoutMs,
  );
}
