import type { CrmClient } from '../../src/app/crm/crm-client';
import { WRITE_ACTIONS } from '@checkin/civicrm-fake';

/**
 * Which CRM calls of a request went out together, seen from the service: every call the CRM
 * client makes is timed from start to answer, and a call belongs to the round after the latest
 * round it waited for (a call that started after another call's answer arrived waited for it).
 * The number of rounds is the number of CRM round trips the request waited for, whatever the
 * machine's load or the emulator's own speed.
 */

export interface TimedCall {
  /** `Entity.action`, `v3 Entity.action` for APIv3. */
  name: string;
  action: string;
  startedAt: number;
  endedAt: number;
}

export class CrmCallTimeline {
  readonly calls: TimedCall[] = [];

  clear(): void {
    this.calls.length = 0;
  }
}

/** Times every call `client` makes from now on; the client behaves exactly as before. */
export function recordCrmCalls(client: CrmClient): CrmCallTimeline {
  const timeline = new CrmCallTimeline();
  const api4 = client.api4.bind(client);
  const api3 = client.api3.bind(client);
  const createFile = client.createFile.bind(client);
  const timed = async <T>(name: string, action: string, call: () => Promise<T>): Promise<T> => {
    const startedAt = performance.now();
    try {
      return await call();
    } finally {
      timeline.calls.push({ name, action, startedAt, endedAt: performance.now() });
    }
  };
  client.api4 = (entity, action, params) =>
    timed(`${entity}.${action}`, action, () => api4(entity, action, params));
  client.api3 = (entity, action, params) =>
    timed(`v3 ${entity}.${action}`, action, () => api3(entity, action, params));
  client.createFile = (file) => timed('File.create', 'create', () => createFile(file));
  return timeline;
}

/** The calls grouped into rounds, in order: round n+1 started after an answer of round n. */
export function groupIntoRounds(calls: readonly TimedCall[]): TimedCall[][] {
  const depthOf = new Map<TimedCall, number>();
  const byStart = [...calls].sort((a, b) => a.startedAt - b.startedAt);
  for (const call of byStart) {
    const waitedFor = byStart.filter((earlier) => earlier !== call && earlier.endedAt <= call.startedAt);
    depthOf.set(call, Math.max(0, ...waitedFor.map((earlier) => depthOf.get(earlier) ?? 0)) + 1);
  }
  const rounds: TimedCall[][] = [];
  for (const call of byStart) {
    const depth = depthOf.get(call) ?? 1;
    (rounds[depth - 1] ??= []).push(call);
  }
  return rounds;
}

/** "Contact.validateChecksum + Relationship.get | Contact.get": each round's calls. */
export function describeRounds(rounds: readonly TimedCall[][]): string {
  return rounds
    .map((round) =>
      round
        .map((call) => call.name)
        .sort()
        .join(' + '),
    )
    .join(' | ');
}

/** docs/decisions.md, "Checksums": the round of the first write comes after the round that validates the checksum. */
export function writesWaitForChecksum(rounds: readonly TimedCall[][]): boolean {
  const validation = rounds.findIndex((round) => round.some((call) => call.action === 'validateChecksum'));
  const firstWrite = rounds.findIndex((round) => round.some((call) => WRITE_ACTIONS.has(call.action)));
  return validation < 0 || firstWrite < 0 || firstWrite > validation;
}
