import { Logger } from '@nestjs/common';
import { type AppConfig, loadAppConfig } from './app/config/app-config';
import { ConfigurationError } from './app/config/environment';
import { createApp } from './app/bootstrap';
import { DEMO_CHECKSUM, DEMO_ORG_ID, DEMO_PERSON_ID } from './app/crm/in-memory/demo-data';

/** Set by the webpack build (backend/webpack.config.js); absent when run from source. */
declare const CHECKIN_BUILD_KIND: string | undefined;
const BUILD_KIND = typeof CHECKIN_BUILD_KIND === 'string' ? CHECKIN_BUILD_KIND : 'source';

async function main(): Promise<void> {
  const config = readConfiguration();
  const app = await createApp(config);
  await app.listen(config.port);
  const logger = new Logger('Startup');
  logger.log(`Listening on ${config.publicBaseUrl} (${config.environment}, ${BUILD_KIND} build)`);
  if (config.production && BUILD_KIND !== 'production') {
    // Tests run such bundles in production mode on purpose; a deployment should not.
    logger.warn(
      `This bundle is a ${BUILD_KIND} build, not a production one: build with NODE_ENV=production and the CRM settings to deploy.`,
    );
  }
  if (config.stubMode) {
    logger.log('Stub mode: no CRM settings, answering from built-in demo data. Demo links:');
    for (const line of demoLinks(config)) logger.log(line);
  }
}

/** A bad or (in production) incomplete configuration stops the process, naming each setting. */
function readConfiguration(): AppConfig {
  try {
    return loadAppConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigurationError) {
      console.error(`Refusing to start. ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

function demoLinks(config: AppConfig): string[] {
  const owner = `contactId=${DEMO_PERSON_ID}&orgId=${DEMO_ORG_ID}&cid=${DEMO_PERSON_ID}&cs=${DEMO_CHECKSUM}`;
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
