/**
 * What the CRM client tells whoever watches it (metrics/metrics.service.ts) about each call to
 * CiviCRM, without knowing who listens: the call's label as the client logs it (`Contact.get`,
 * `v3 Attachment.get`, `batch(Contact.get, Activity.get)`), how long it took, and how it ended.
 */
export interface CrmCallObserver {
  /** `outcome`: `ok`, or the CrmError failure (`timeout`, `unreachable`, `unauthorized`, …). */
  crmCallFinished(call: string, seconds: number, outcome: string): void;
  /** A call that found every connection to the CRM busy and waited for one (CRM_MAX_CONNECTIONS). */
  crmConnectionWaited(): void;
  /** Calls waiting for a connection right now, read when metrics are collected. */
  watchCrmConnections(waiting: () => number): void;
}
