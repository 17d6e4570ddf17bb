import { Logger } from '@nestjs/common';
import { loadAppConfig } from './app/config/app-config';
import { ConfigurationError } from './app/config/environment';
import { CiviCrmHttpClient } from './app/crm/civicrm-http.client';
import { desiredSchema } from './crm-schema/desired-schema';
import { exitCodeOf, formatReport, hintFor, type Mode } from './crm-schema/report';
import { runSchema } from './crm-schema/run';

const USAGE = `Usage: npm run crm:schema [-- --apply] [-- --json]

Compares what CiviCRM holds with what the check-in service needs (the activity type, both custom
groups with every configured field and option list, the 'Primary Contact' relationship type).
Without --apply it changes nothing. Reads the service's settings: CRM_BASE_URL, CRM_API_KEY,
CRM_SITE_KEY, CRM_BASIC_AUTH_USER/PASSWORD, CRM_URL_STYLE, CRM_TIMEOUT_MS, and the group names
CRM_ACTIVITY_CUSTOM_GROUP and CRM_CONTACT_CUSTOM_GROUP.

Exit status: 0 nothing (left) to do, 2 a dry run found changes, 1 an error or an apply left some.`;

export function parseSchemaArgs(argv: readonly string[]): { mode: Mode; json: boolean; help: boolean } {
  const known = new Set(['--apply', '--json', '--help', '-h']);
  const unknown = argv.filter((arg) => !known.has(arg));
  if (unknown.length > 0) throw new Error(`Unknown argument(s): ${unknown.join(' ')}`);
  return {
    mode: argv.includes('--apply') ? 'apply' : 'dry-run',
    json: argv.includes('--json'),
    help: argv.includes('--help') || argv.includes('-h'),
  };
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parseSchemaArgs(argv);
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const config = loadAppConfig(process.env);
  if (!config.crm)
    throw new Error('Set CRM_BASE_URL and CRM_API_KEY to the CiviCRM to check (see docs/civicrm-setup.md).');
  // The client's own log lines would interleave with the report; failures are reported below.
  Logger.overrideLogger(false);
  const crm = new CiviCrmHttpClient(config.crm);
  try {
    const report = await runSchema(crm, desiredSchema(config.crm.customGroups), {
      mode: args.mode,
      crmLabel: config.crm.baseUrl,
    });
    process.stdout.write(`${args.json ? JSON.stringify(report, null, 2) : formatReport(report)}\n`);
    return exitCodeOf(report.outcome);
  } finally {
    await crm.onApplicationShutdown();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const message =
        error instanceof ConfigurationError || error instanceof Error ? error.message : String(error);
      process.stderr.write(`crm:schema failed: ${message}${hintFor(error)}\n`);
      process.exitCode = 1;
    },
  );
}
