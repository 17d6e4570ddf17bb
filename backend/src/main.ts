import { Logger } from '@nestjs/common';
import { type AppConfig, loadAppConfig } from './app/config/app-config';
import { ConfigurationError } from './app/config/environment';
import { createApp } from './app/bootstrap';
import { DEMO_CHECKSUM, DEMO_ORG_ID, DEMO_PERSON_ID } from './app/crm/in-memory/demo-data';

async function main(): Promise<void> {
  const config = readConfiguration();
  const app = await createApp(config);
  await app.listen(config.port);
  const logger = new Logger('Startup');
  logger.log(`Listening on ${config.publicBaseUrl} (${config.environment})`);
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
