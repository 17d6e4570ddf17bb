import { CRM_CLIENT, type CrmClient } from '../src/app/crm/crm-client';
import { DEMO_PERSON_ID } from '../src/app/crm/in-memory/demo-data';
import {
  DEMO_LINK,
  type OwnerLink,
  routeRequest,
  type RouteName,
  send,
  SUCCESS_STATUS,
  UNLIMITED_RATE_ENV,
} from '../test/reliability/support/route-requests';
import { startTestApp, type TestApp } from '../test/support/test-app';
import { type BenchFigure, type BenchRow, percentile, reportBench, round } from './bench-output';
import {
  type CrmCallTimeline,
  describeRounds,
  groupIntoRounds,
  recordCrmCalls,
  type TimedCall,
  writesWaitForChecksum,
} from './support/crm-rounds';

/**
 * CRM round trips per route, with the emulator answering every call after 50 ms. Two figures:
 * the rounds of CRM calls each request waited for, counted from the service's own CRM client
 * (held to the targets), and the route's p50 latency divided by 50 ms. The second also holds
 * the service's and the emulator's own work, which share this process and, on a busy machine,
 * can add a good part of a round on top.
 */

const CRM_LATENCY_MS = 50;
const REQUESTS_PER_SCENARIO = 20;

interface Scenario {
  name: string;
  route: RouteName;
  /** Rounds the route may wait for (a cold checksum adds one). */
  targetRounds: number;
  /** A fresh checksum on every request, so none is in the service's grant cache. */
  coldChecksum: boolean;
  link?: OwnerLink;
}

const LINK_WITHOUT_ORG: OwnerLink = { contactId: DEMO_LINK.contactId, cid: DEMO_LINK.cid, cs: DEMO_LINK.cs };

const SCENARIOS: Scenario[] = [
  { name: 'GET /api/data', route: 'data', targetRounds: 1, coldChecksum: false },
  { name: 'GET /api/report (orgId given)', route: 'report', targetRounds: 1, coldChecksum: false },
  {
    name: 'GET /api/report (no orgId)',
    route: 'report',
    targetRounds: 2,
    coldChecksum: false,
    link: LINK_WITHOUT_ORG,
  },
  // Lookup with the update, the create, the read-back (docs/decisions.md, "Idempotent submit").
  { name: 'POST /api/submit', route: 'submit', targetRounds: 3, coldChecksum: false },
  { name: 'POST /api/upload', route: 'upload', targetRounds: 1, coldChecksum: false },
  {
    name: 'GET /api/staff/report (schema cached)',
    route: 'staffReport',
    // The reads, the v3 lookup CiviCRM refuses, then File.get (README, "Decisions where the product's rules are silent", Staff file links).
    targetRounds: 3,
    coldChecksum: false,
  },
  { name: 'GET /api/data, cold checksum', route: 'data', targetRounds: 2, coldChecksum: true },
  { name: 'GET /api/report, cold checksum', route: 'report', targetRounds: 2, coldChecksum: true },
  { name: 'POST /api/submit, cold checksum', route: 'submit', targetRounds: 4, coldChecksum: true },
  { name: 'POST /api/upload, cold checksum', route: 'upload', targetRounds: 2, coldChecksum: true },
];

interface Measurement {
  elapsedMs: number;
  rounds: TimedCall[][];
}

describe('CRM round trips per route', () => {
  let service: TestApp;
  let timeline: CrmCallTimeline;
  let coldChecksums = 0;

  beforeAll(async () => {
    service = await startTestApp({ env: { ...UNLIMITED_RATE_ENV } });
    timeline = recordCrmCalls(service.app.get<CrmClient>(CRM_CLIENT));
  });

  afterAll(async () => {
    await service.close();
  });

  /** A checksum the CRM accepts for the demo person and the service has never seen. */
  function freshLink(link: OwnerLink): OwnerLink {
    coldChecksums += 1;
    const checksum = `bench-cold-${coldChecksums}`;
    service.emulator.model.setFixedChecksum(DEMO_PERSON_ID, checksum);
    return { ...link, cs: checksum };
  }

  async function measure(scenario: Scenario, link: OwnerLink): Promise<Measurement> {
    timeline.clear();
    const response = await send(service.url, routeRequest(scenario.route, link));
    expect({ scenario: scenario.name, status: response.status }).toEqual({
      scenario: scenario.name,
      status: SUCCESS_STATUS[scenario.route],
    });
    return { elapsedMs: response.elapsedMs, rounds: groupIntoRounds(timeline.calls) };
  }

  async function run(scenario: Scenario): Promise<Measurement[]> {
    const link = scenario.link ?? DEMO_LINK;
    service.emulator.reset();
    // Warm the checksum grant and the schema caches with the CRM answering at once.
    await measure(scenario, link);
    service.emulator.setLatency(CRM_LATENCY_MS);
    const measurements: Measurement[] = [];
    for (let index = 0; index < REQUESTS_PER_SCENARIO; index += 1) {
      measurements.push(await measure(scenario, scenario.coldChecksum ? freshLink(link) : link));
    }
    return measurements;
  }

  it('counts the rounds of CRM calls each route waits for', async () => {
    const rows: BenchRow[] = [];
    const figures: BenchFigure[] = [];
    const roundsByScenario: Record<string, string> = {};
    for (const scenario of SCENARIOS) {
      const measurements = await run(scenario);
      for (const { rounds } of measurements) {
        // Every scenario needs the CRM: no call seen means the timeline missed a client method.
        expect({ scenario: scenario.name, reachedCrm: rounds.length > 0 }).toEqual({
          scenario: scenario.name,
          reachedCrm: true,
        });
        expect(writesWaitForChecksum(rounds)).toBe(true);
      }

      const p50Ms = percentile(sorted(measurements.map((measurement) => measurement.elapsedMs)), 50);
      const roundTrips = percentile(sorted(measurements.map((measurement) => measurement.rounds.length)), 50);
      const last = measurements.at(-1)?.rounds ?? [];
      roundsByScenario[scenario.name] = describeRounds(last);
      rows.push({
        route: scenario.name,
        target: scenario.targetRounds,
        'round trips': roundTrips,
        'CRM calls': last.flat().length,
        'p50 ms': round(p50Ms, 1),
        'p50 / 50 ms': round(p50Ms / CRM_LATENCY_MS),
        result: roundTrips <= scenario.targetRounds ? 'PASS' : 'MISS',
      });
      figures.push(
        {
          figure: `Round trips: ${scenario.name}`,
          value: roundTrips,
          unit: 'round trips',
          target: { max: scenario.targetRounds },
        },
        {
          figure: `p50 ÷ ${CRM_LATENCY_MS} ms: ${scenario.name}`,
          value: round(p50Ms / CRM_LATENCY_MS),
          unit: `× ${CRM_LATENCY_MS} ms`,
          target: {},
        },
      );
    }
    reportBench('round-trips', rows, {
      crmLatencyMs: CRM_LATENCY_MS,
      requestsPerScenario: REQUESTS_PER_SCENARIO,
      roundsByScenario,
      figures,
    });
    process.stdout.write(
      `\nCRM calls by round (calls within a round went out together):\n${Object.entries(roundsByScenario)
        .map(([name, rounds]) => `  ${name}: ${rounds}`)
        .join('\n')}\n`,
    );
  });
});

function sorted(values: number[]): number[] {
  return [...values].sort((a, b) => a - b);
}
