import type { ErrorBody, FieldValues, SubmitResponse } from '@checkin/contract';
import { randomUUID } from 'node:crypto';
import type { RecordedCall } from '@checkin/civicrm-fake/emulator';
import { OwnerAccessService } from '../../src/app/auth/owner-access.service';
import { FileReceipts } from '../../src/app/check-ins/file-receipts';
import { CRM_CLIENT, type CrmClient } from '../../src/app/crm/crm-client';
import { CrmError } from '../../src/app/crm/crm-errors';
import {
  ACTIVITY_CUSTOM_GROUP,
  CONTACT_CUSTOM_GROUP,
  SUBMISSION_ID_FIELD,
} from '../../src/app/crm/crm-names';
import { createDemoModel, DEMO_ORG_ID, DEMO_PERSON_ID } from '../../src/app/crm/in-memory/demo-data';
import { sharedTestApp } from './shared-app';
import { DEMO_LINK } from './test-app';

export const activityField = (field: string) => `${ACTIVITY_CUSTOM_GROUP}.${field}`;
export const contactField = (field: string) => `${CONTACT_CUSTOM_GROUP}.${field}`;

/**
 * The service that POST /api/submit's specs talk to, one per describe block, with the link's
 * access cache cleared before each test, and the ways those specs send a check-in and read back
 * what reached the CRM.
 */
export function useSubmitSuite() {
  const service = sharedTestApp({
    emulator: { model: createDemoModel() },
    env: { RATE_LIMIT_SUBMITS_PER_MINUTE: '1000' },
  });

  beforeEach(() => {
    service.app.get(OwnerAccessService).clear();
  });

  function submit(values: FieldValues, submissionId: string = randomUUID(), link: object = DEMO_LINK) {
    return service.post('/api/submit', { ...link, submissionId, values });
  }

  async function accepted(values: FieldValues, submissionId?: string): Promise<SubmitResponse> {
    const response = await submit(values, submissionId);
    expect(response.status).toBe(201);
    return (await response.json()) as SubmitResponse;
  }

  async function refused(response: Response): Promise<ErrorBody> {
    return (await response.json()) as ErrorBody;
  }

  /**
   * The next batch's activity create fails on its own, as CiviCRM answers a call it refuses
   * within a batch; the batch's other calls run.
   */
  function refuseCreateInNextBatch(): void {
    const client = service.app.get<CrmClient>(CRM_CLIENT);
    const batch = client.batch.bind(client);
    const spy = jest.spyOn(client, 'batch').mockImplementation(async (calls) => {
      const kept = Object.fromEntries(Object.entries(calls).filter(([, [, action]]) => action !== 'create'));
      const refused = Object.keys(calls).filter((key) => !(key in kept));
      if (refused.length > 0) spy.mockRestore();
      const answered = await batch(kept);
      return {
        ...answered,
        ...Object.fromEntries(
          refused.map((key) => [key, { error: new CrmError('failed', key, 'refused in the test') }]),
        ),
      };
    });
  }

  function activityCreates(): RecordedCall[] {
    return service.emulator.callsTo('Activity', 'create');
  }

  /** The values of the newest Activity.create that reached the CRM. */
  function createdValues(): Record<string, unknown> {
    return activityCreates().at(-1)?.params['values'] as Record<string, unknown>;
  }

  function organization(select: string[]): Record<string, unknown> {
    const [row] = service.emulator.model.api4('Contact', 'get', {
      select,
      where: [['id', '=', DEMO_ORG_ID]],
    });
    return row ?? {};
  }

  function checkInsWith(submissionId: string): Record<string, unknown>[] {
    return service.emulator.model.api4('Activity', 'get', {
      select: ['id', 'activity_date_time'],
      where: [[SUBMISSION_ID_FIELD, '=', submissionId]],
    });
  }

  /** What /api/upload would have answered with the file: the receipt for this person, org and field. */
  function receiptFor(field: string, fileId: number, orgId: number = DEMO_ORG_ID): string {
    return service.app.get(FileReceipts).issue({ contactId: DEMO_PERSON_ID, orgId, field, fileId });
  }

  function uploadedFile(fileName: string): number {
    const [row] = service.emulator.model.api4('File', 'create', {
      values: {
        file_name: fileName,
        mime_type: 'application/pdf',
        content: Buffer.from('%PDF-1.4').toString('base64'),
      },
    });
    return Number(row?.['id']);
  }
  return {
    service,
    submit,
    accepted,
    refused,
    refuseCreateInNextBatch,
    activityCreates,
    createdValues,
    organization,
    checkInsWith,
    receiptFor,
    uploadedFile,
  };
}
