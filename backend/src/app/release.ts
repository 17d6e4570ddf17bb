/**
 * The service's release, a semantic version (docs/releasing.md). It is written here and in
 * package.json; release.spec.ts keeps the two, the extension's info.xml and CHANGELOG.md in step.
 * Shown in the start-up log line and, to the administrator, in `/api/health`.
 */
export const SERVICE_VERSION = '1.0.0';

/** The start-up log line once the service listens: the release first, so a log names what ran. */
export function listeningLine(publicBaseUrl: string, environment: string, buildKind: string): string {
  return `checkin-middleware ${SERVICE_VERSION} listening on ${publicBaseUrl} (${environment}, ${buildKind} build)`;
}
