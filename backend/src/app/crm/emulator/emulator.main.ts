import { runEmulatorCli } from '@checkin/civicrm-fake/emulator';
import { DEMO_CHECKSUM, DEMO_ORG_ID, DEMO_PERSON_ID, createDemoModel } from '../in-memory/demo-data';

/**
 * Runs the CiviCRM emulator alone, seeded with the demo data (docs/emulator.md): the build's
 * dist/backend/emulator.js. The emulator lives in libs/civicrm-fake; the demo data follows the
 * back end's field configuration, so this entry point binds the two.
 */
if (require.main === module) {
  runEmulatorCli(process.argv.slice(2), {
    createModel: createDemoModel,
    summary: `demo person ${DEMO_PERSON_ID}, organization ${DEMO_ORG_ID}, checksum "${DEMO_CHECKSUM}"`,
  }).catch((error: unknown) => {
    console.error(
      `CiviCRM emulator failed to start: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  });
}
