import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { type RunningProcess, startService } from '../support/app-server';

/**
 * An owner's whole visit against a real CiviCRM: open the personal link, change an answer,
 * upload a certificate, send, and find the answer in the report.
 */
const crmUrl = process.env['CIVICRM_URL'];
const adminKey = process.env['CIVICRM_ADMIN_KEY'] ?? '';

async function api4(
  entity: string,
  action: string,
  params: unknown,
): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${crmUrl}/civicrm/ajax/api4/${entity}/${action}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-Requested-With': 'XMLHttpRequest',
      'X-Civi-Auth': `Bearer ${adminKey}`,
    },
    body: new URLSearchParams({ params: JSON.stringify(params) }).toString(),
  });
  const body = (await response.json()) as { values: Array<Record<string, unknown>> };
  return body.values;
}

test.skip(!crmUrl, 'needs a real CiviCRM (tools/civicrm/real-suite.mjs)');

let service: RunningProcess;
let link: string;

test.beforeAll(async () => {
  service = await startService({
    CRM_BASE_URL: crmUrl ?? '',
    CRM_API_KEY: process.env['CIVICRM_SERVICE_KEY'] ?? adminKey,
    CRM_TIMEOUT_MS: '30000',
    CRM_ACTIVITY_CUSTOM_GROUP: process.env['CRM_ACTIVITY_CUSTOM_GROUP'] ?? 'Check_in_data__organizing_',
    CRM_CONTACT_CUSTOM_GROUP: process.env['CRM_CONTACT_CUSTOM_GROUP'] ?? 'Food_Co_op_Organizing',
    STAFF_REPORT_KEY: 'journey-staff-key-0123456789',
    ADMIN_KEY: 'journey-admin-key-0123456789',
    UPLOAD_RECEIPT_KEY: 'journey-receipt-key-0123456789-0123456789',
  });
  const stamp = Date.now().toString(36);
  const [person] = await api4('Contact', 'create', {
    values: { contact_type: 'Individual', first_name: 'Jo', last_name: `Journey ${stamp}` },
  });
  const [org] = await api4('Contact', 'create', {
    values: { contact_type: 'Organization', organization_name: `Journey Co-op ${stamp}` },
  });
  const [type] = await api4('RelationshipType', 'get', {
    select: ['id'],
    where: [['name_a_b', '=', 'Primary Contact']],
  });
  await api4('Relationship', 'create', {
    values: { contact_id_a: person?.['id'], contact_id_b: org?.['id'], relationship_type_id: type?.['id'] },
  });
  const [checksum] = await api4('Contact', 'getChecksum', { contactId: person?.['id'] });
  link = new URLSearchParams({
    contactId: String(person?.['id']),
    orgId: String(org?.['id']),
    cid: String(person?.['id']),
    cs: String(checksum?.['checksum']),
  }).toString();
});

test.afterAll(async () => {
  await service?.stop();
});

test('an owner changes an answer, uploads a certificate, sends, and sees it in the report', async ({
  page,
}) => {
  await page.goto(`${service.url}/?${link}`);
  await expect(page.getByRole('heading', { name: 'Your co-op', level: 2 })).toBeVisible();
  await page.getByLabel('Equity share price').fill('275');
  await page
    .getByLabel('Certificate of incorporation')
    .setInputFiles(join(__dirname, '..', '..', 'backend', 'test', 'fixtures', 'files', 'sample.pdf'));
  await expect(page.getByText('Uploading sample.pdf')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByText('sample.pdf').first()).toBeVisible();
  await page
    .getByRole('button', { name: /^Send check-in$|^Review/ })
    .first()
    .click();
  // A review step, where there is one, is confirmed with its own send button.
  const confirm = page.getByRole('button', { name: /^Send( check-in)?$/ });
  const recorded = page.getByRole('heading', { name: /recorded/i }).first();
  await expect(confirm.or(recorded).first()).toBeVisible({ timeout: 30_000 });
  if (await confirm.isVisible()) await confirm.click();
  await expect(recorded).toBeVisible({ timeout: 30_000 });

  await page.goto(`${service.url}/report?${link}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Journey Co-op');
});
