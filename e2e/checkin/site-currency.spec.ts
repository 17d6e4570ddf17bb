import { expect, test } from '@playwright/test';
import { DEMO_CHECKSUM, DEMO_ORG_ID, DEMO_PERSON_ID } from '../../backend/src/app/crm/in-memory/demo-data';
import { type RunningProcess, startEmulator, startService } from '../support/app-server';

/**
 * Amounts follow the CRM site's currency and locale (docs/decisions.md, "Currency and number
 * formats"): a Canadian co-op on a French-Canadian site reads its lender commitments in Canadian
 * dollars written the fr-CA way, not as US dollars. Build first: `npx nx run-many -t build`.
 */
const DEMO_LINK = `contactId=${DEMO_PERSON_ID}&orgId=${DEMO_ORG_ID}&cid=${DEMO_PERSON_ID}&cs=${DEMO_CHECKSUM}`;
const LENDER_COMMITMENTS = 1_400_000;

test.describe('a CiviCRM site in Canadian dollars, fr_CA', () => {
  let emulator: RunningProcess & { apiKey: string };
  let service: RunningProcess;

  test.beforeAll(async () => {
    emulator = await startEmulator(undefined, ['--currency', 'CAD', '--language', 'fr_CA']);
    service = await startService({ CRM_BASE_URL: emulator.url, CRM_API_KEY: emulator.apiKey });
  });

  test.afterAll(async () => {
    await service?.stop();
    await emulator?.stop();
  });

  test.use({ viewport: { width: 390, height: 844 } });

  test("the owner's report writes amounts in the site's currency and locale at 390 px", async ({ page }) => {
    await page.goto(`${service.url}/report?${DEMO_LINK}`);
    const canadian = new Intl.NumberFormat('fr-CA', { style: 'currency', currency: 'CAD' }).format(
      LENDER_COMMITMENTS,
    );
    const american = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
      LENDER_COMMITMENTS,
    );
    await expect(page.getByText(canadian).first()).toBeVisible();
    await expect(page.getByText(american)).toHaveCount(0);
  });
});
