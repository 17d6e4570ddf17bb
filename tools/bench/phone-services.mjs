/**
 * The phone bench's services (tools/bench/phone.mjs), started by the harness
 * (tools/harness/processes.cjs): the built service in stub mode, and the large co-op's service.
 */
import { startBuiltEmulator, startBuiltServiceWith } from '../harness/processes.cjs';

/** How many check-ins the large co-op holds (issue 25's large co-op), and its service's staff key. */
export const LARGE_HISTORY_CHECKINS = 400;
export const LARGE_HISTORY_STAFF_KEY = 'bench-staff-key-0123456789';
/** The demo owner's link (backend/src/app/crm/in-memory/demo-data.ts). */
const DEMO_OWNER = {
  cid: '102',
  cs: 'fe01ce2a7fbac8fafaed7c982a04e229_1767225600_inf',
  contactId: '102',
  orgId: '101',
};

/** The built service as `npm start` runs it (request logs off: they are not measured here); stub mode unless `env` names a CRM. */
export function startStubService(env = {}) {
  return startBuiltServiceWith(
    { NODE_ENV: 'development', LOG_REQUESTS: 'false', ...env },
    { timeoutMs: 60_000 },
  );
}

/**
 * The large co-op's service: the CRM emulator (the back end's build, dist/backend/emulator.js,
 * seeded with the demo data) and the service in live mode against it; then the demo co-op is
 * given LARGE_HISTORY_CHECKINS check-ins through `POST /api/submit`, each changing a few figures
 * so its fields have a long history too.
 */
export async function startLargeHistoryService() {
  const apiKey = 'bench-api-key-0123456789';
  const emulator = await startBuiltEmulator(apiKey);
  let service;
  try {
    service = await startStubService({
      CRM_BASE_URL: emulator.url,
      CRM_API_KEY: apiKey,
      STAFF_REPORT_KEY: LARGE_HISTORY_STAFF_KEY,
      RATE_LIMIT_SUBMITS_PER_MINUTE: String(LARGE_HISTORY_CHECKINS * 10),
    });
    const submit = async (index) => {
      const answer = await fetch(`${service.url}/api/submit`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: service.url },
        body: JSON.stringify({
          ...DEMO_OWNER,
          submissionId: crypto.randomUUID(),
          values: { Store_size_sqft: 4000 + index, Member_owner_count: 900 + index },
        }),
      });
      if (answer.status !== 201)
        throw new Error(`seeding check-in ${index}: ${answer.status} ${await answer.text()}`);
    };
    // A few at a time: the emulator answers each CRM call in turn.
    for (let next = 0; next < LARGE_HISTORY_CHECKINS; next += 8) {
      await Promise.all(
        Array.from({ length: Math.min(8, LARGE_HISTORY_CHECKINS - next) }, (_, offset) =>
          submit(next + offset),
        ),
      );
    }
  } catch (error) {
    await service?.stop();
    await emulator.stop();
    throw error;
  }
  return { url: service.url, stop: async () => (await service.stop(), await emulator.stop()) };
}
