import { test } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DEMO_CHECKSUM, DEMO_ORG_ID, DEMO_PERSON_ID } from '../../backend/src/app/crm/in-memory/demo-data';
import { type RunningProcess, startService } from '../support/app-server';

/** The demo person's link to the demo organization, as the owner pages' query string. */
export const OWNER_LINK = `contactId=${DEMO_PERSON_ID}&orgId=${DEMO_ORG_ID}&cid=${DEMO_PERSON_ID}&cs=${DEMO_CHECKSUM}`;
export const SCREENSHOTS = join(resolve(__dirname, '..', '..'), 'dist', 'e2e', 'screenshots');

/**
 * The browser-rendered pages: tests that act at once, some serving API answers from the test
 * (page.route); the server-rendered pages are tested in before-hydration, preload and csp.spec.ts.
 */
export const BROWSER_RENDERED = { SERVER_RENDERING: 'false' };

export interface SuiteService {
  readonly url: string;
}

/**
 * The built service for every test of the file that calls this, in stub mode unless `env` names
 * a CRM: started before the file's first test (with the screenshots folder made, when asked),
 * stopped after its last.
 */
export function useBuiltService(
  env: Record<string, string> = {},
  { screenshots = false } = {},
): SuiteService {
  let service: RunningProcess | undefined;
  test.beforeAll(async () => {
    service = await startService(env);
    if (screenshots) await mkdir(SCREENSHOTS, { recursive: true });
  });
  test.afterAll(async () => {
    await service?.stop();
  });
  return {
    get url(): string {
      if (!service) throw new Error('the built service is used before its beforeAll started it');
      return service.url;
    },
  };
}
