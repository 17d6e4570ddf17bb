import { isKnownTimeZone } from '@checkin/contract';
import type { CiviCrmModel, CiviCrmModelOptions } from '../../index';
import { CiviCrmEmulator } from './civicrm-emulator';
import { type CiviCrmEmulatorOptions, DEFAULT_EMULATOR_API_KEY } from './emulator-types';

/**
 * The emulator's command line:
 *   node dist/backend/emulator.js --port 8089 --api-key emulator-api-key [--site-key K] [--host H] [--latency MS]
 *     [--civicrm-version 6.14|5.81] [--extension yes|no] [--timezone America/Chicago]
 *     [--currency CAD] [--language en_CA]   (the site's defaultCurrency and lcMessages settings)
 *     [--api-user KEY=permission,permission,...]   (one more API user, e.g. a minimal one)
 * Point the service at it with CRM_BASE_URL=<printed URL> and CRM_API_KEY=<the key>.
 */

const DEFAULT_PORT = 8089;
/** Run alone, nobody reads the record of calls: keep the newest few for debugging, not hours of them. */
const RECORD_LIMIT = 1_000;

export function parseEmulatorArgs(argv: readonly string[]): CiviCrmEmulatorOptions {
  const values = new Map<string, string>();
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    if (!arg.startsWith('--')) throw new Error(`Unexpected argument: ${arg}`);
    const [name = '', inline] = arg.slice(2).split(/=(.*)/s, 2);
    const value = inline ?? argv[++index];
    if (value === undefined) throw new Error(`Missing value for --${name}`);
    values.set(name, value);
  }
  const known = new Set([
    'port',
    'api-key',
    'site-key',
    'host',
    'latency',
    'civicrm-version',
    'extension',
    'timezone',
    'api-user',
    'currency',
    'language',
  ]);
  for (const name of values.keys()) if (!known.has(name)) throw new Error(`Unknown option: --${name}`);
  const port = Number(values.get('port') ?? DEFAULT_PORT);
  const latency = Number(values.get('latency') ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port must be a port number');
  if (!Number.isFinite(latency) || latency < 0) throw new Error('--latency must be milliseconds');
  const siteKey = values.get('site-key');
  const host = values.get('host');
  const version = values.get('civicrm-version') ?? '6.14';
  if (version !== '6.14' && version !== '5.81') throw new Error('--civicrm-version must be 6.14 or 5.81');
  const extension = values.get('extension') ?? 'yes';
  if (extension !== 'yes' && extension !== 'no') throw new Error('--extension must be yes or no');
  const timeZone = values.get('timezone') ?? 'UTC';
  if (!isKnownTimeZone(timeZone)) throw new Error('--timezone must be an IANA time zone');
  const currency = values.get('currency');
  const language = values.get('language');
  const apiUser = values.get('api-user');
  const [userKey = '', permissions = ''] = apiUser?.split(/=(.*)/s, 2) ?? [];
  if (apiUser !== undefined && (userKey === '' || permissions === '')) {
    throw new Error('--api-user must be KEY=permission,permission,...');
  }
  return {
    port,
    apiKey: values.get('api-key') ?? DEFAULT_EMULATOR_API_KEY,
    latencyMs: latency,
    recordLimit: RECORD_LIMIT,
    civicrmVersion: version,
    extensionInstalled: extension === 'yes',
    timeZone,
    ...(apiUser
      ? { apiUsers: { [userKey]: { permissions: permissions.split(',').map((name) => name.trim()) } } }
      : {}),
    ...(currency || language
      ? {
          settings: {
            ...(currency ? { defaultCurrency: currency } : {}),
            ...(language ? { lcMessages: language } : {}),
          },
        }
      : {}),
    ...(siteKey ? { siteKey } : {}),
    ...(host ? { host } : {}),
  };
}

export interface EmulatorCliSeed {
  /** Builds the model the emulator serves, from the options the command line chose. */
  createModel: (options: Omit<CiviCrmModelOptions, 'seed'>) => CiviCrmModel;
  /** One line on the seeded data for the console, e.g. the demo person's link parameters. */
  summary: string;
}

/** Starts the emulator from the command line's arguments; stops it on SIGINT and SIGTERM. */
export async function runEmulatorCli(argv: readonly string[], seed: EmulatorCliSeed): Promise<void> {
  const options = parseEmulatorArgs(argv);
  const emulator = await CiviCrmEmulator.start({ ...options, createModel: seed.createModel });
  const key =
    options.apiKey === DEFAULT_EMULATOR_API_KEY ? DEFAULT_EMULATOR_API_KEY : '<the --api-key value>';
  console.log(
    `CiviCRM emulator (CiviCRM ${emulator.model.civicrmVersion}, extension ${emulator.model.extensionInstalled ? 'installed' : 'absent'}, ` +
      `time zone ${emulator.model.timeZone}) listening on ${emulator.baseUrl}`,
  );
  console.log(`  CRM_BASE_URL=${emulator.baseUrl} CRM_API_KEY=${key}`);
  console.log(`  ${seed.summary}`);
  const stop = (signal: string) => {
    console.log(`CiviCRM emulator stopping (${signal})`);
    emulator.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}
