import { join } from 'node:path';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the harness is plain CommonJS the .mjs benches load by path too (docs/architecture.md, "Where to change")
import { type BuiltProcess, freePort, startNodeProcess } from '../../../tools/harness/processes.cjs';
import { DEFAULT_MAX_CONNECTIONS } from '../../src/app/crm/civicrm-http.client';

const SCRIPT = join(__dirname, 'reference-service.mjs');

/** One CRM call as the service made it: a read by its address, or a POST with its body. */
export interface ReferenceCrmCall {
  url: string;
  method: string;
  body?: { text: string; contentType: string };
}

export interface ReferenceServiceOptions {
  /** The CRM calls one form load makes, with their full addresses. */
  crmCalls: ReferenceCrmCall[];
  crmHeaders: Record<string, string>;
  /** Size of the service's answer, which the reference writes too. */
  answerBytes: number;
}

/** Starts reference-service.mjs in a process of its own and resolves once it answers. */
export async function startReferenceService(options: ReferenceServiceOptions): Promise<BuiltProcess> {
  const port = await freePort();
  return startNodeProcess({
    script: SCRIPT,
    // The service's connection bound (CRM_MAX_CONNECTIONS's default, which the bench keeps).
    env: { REFERENCE_OPTIONS: JSON.stringify({ port, connections: DEFAULT_MAX_CONNECTIONS, ...options }) },
    url: `http://127.0.0.1:${port}`,
  });
}
