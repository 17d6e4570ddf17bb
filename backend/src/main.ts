import { Logger } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type AppConfig, loadAppConfig } from './app/config/app-config';
import { ConfigurationError } from './app/config/environment';
import { createApp } from './app/bootstrap';
import { STUB_DEMO_CHECKSUM, DEMO_ORG_ID, DEMO_PERSON_ID } from './app/crm/in-memory/demo-data';
import { DeploymentCheck, type DeploymentReport } from './app/health/deployment-check';
import { listeningLine } from './app/release';

/** Set by the webpack build (backend/webpack.config.js); absent when run from source. */
declare const CHECKIN_BUILD_KIND: string | undefined;
const BUILD_KIND = typeof CHECKIN_BUILD_KIND === 'string' ? CHECKIN_BUILD_KIND : 'source';

async function main(): Promise<void> {
  const config = readConfiguration();
  const app = await createApp(config);
  const logger = new Logger('Startup');
  // Runs the deployment self-check (health/deployment-check.ts) before anything listens.
  await app.init();
  if (config.crm) {
    const report = await app.get(DeploymentCheck).current();
    logger.log(describeSite(report));
    const fatal = report.problems.filter((problem) => problem.fatal);
    if (config.production && fatal.length > 0) {
      console.error(
        `Refusing to start: the deployment self-check found ${fatal.length} problem(s) to fix first:\n` +
          fatal.map((problem) => `  - ${problem.code} (${problem.fix}): ${problem.message}`).join('\n'),
      );
      await app.close();
      process.exit(1);
    }
  }
  await (config.host ? app.listen(config.port, config.host) : app.listen(config.port));
  logger.log(listeningLine(config.publicBaseUrl, config.environment, BUILD_KIND));
  if (config.production && BUILD_KIND !== 'production') {
    // Tests run such bundles in production mode on purpose; a deployment should not.
    logger.warn(
      `This bundle is a ${BUILD_KIND} build, not a production one: build with \`npm run build\` (NODE_ENV=production and the CRM settings set) to deploy.`,
    );
  }
  if (config.stubMode) {
    logger.log('Stub mode: no CRM settings, answering from built-in demo data. Demo links:');
    for (const line of demoLinks(config)) logger.log(line);
  }
}

/** One line an administrator can compare with CiviCRM: versions, the zone in use and its source, groups, file links. */
function describeSite(report: DeploymentReport): string {
  const zone = report.timeZone;
  const source =
    zone.source === 'setting'
      ? 'CRM_TIMEZONE'
      : zone.source === 'extension'
        ? "reported by the extension: the API user's zone in CiviCRM"
        : 'default: the extension reported none';
  return (
    `CiviCRM ${report.civicrmVersion ?? 'version unknown'}, extension ${report.extensionVersion ?? 'not answering'}; ` +
    `time zone ${zone.inUse ?? 'unknown'} (${source}); custom groups ${report.customGroups.activity} and ` +
    `${report.customGroups.contact}; staff file links: ${report.fileLinks}; ` +
    `${report.problems.length === 0 ? 'self-check found no problem' : `self-check found ${report.problems.length} problem(s), logged above`}`
  );
}

/** A bad or (in production) incomplete configuration stops the process, naming each setting. */
function readConfiguration(): AppConfig {
  try {
    const config = loadAppConfig(process.env);
    const problems = productionFileProblems(config);
    if (problems.length > 0) throw new ConfigurationError(problems);
    return config;
  } catch (error) {
    if (error instanceof ConfigurationError) {
      console.error(`Refusing to start. ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

/** Without the built front end every owner link would answer 404, silently. */
function productionFileProblems(config: AppConfig): string[] {
  if (!config.production || existsSync(join(config.frontendDist, 'index.html'))) return [];
  return [
    `The front end is not built: ${join(config.frontendDist, 'index.html')} is missing. ` +
      'Run `npm run build` (or set FRONTEND_DIST to the folder holding the built index.html).',
  ];
}

function demoLinks(config: AppConfig): string[] {
  const owner = `contactId=${DEMO_PERSON_ID}&orgId=${DEMO_ORG_ID}&cid=${DEMO_PERSON_ID}&cs=${STUB_DEMO_CHECKSUM}`;
  const staffKey = config.staffReportKey === 'demo' ? 'demo' : '<STAFF_REPORT_KEY>';
  return [
    `  form:   ${config.publicBaseUrl}/?${owner}`,
    `  report: ${config.publicBaseUrl}/report?${owner}`,
    `  staff:  ${config.publicBaseUrl}/staff?orgId=${DEMO_ORG_ID}&key=${staffKey}`,
  ];
}

main().catch((error: unknown) => {
  console.error('The service stopped while starting:', error instanceof Error ? error.message : error);
  process.exit(1);
});
