import type { Api4Params } from '../crm-client';
import { CrmError } from '../crm-errors';
import { ACTIVITY_TYPE_NAME } from '../crm-names';
import { DEMO_ORG_ID, DEMO_PERSON_ID, createDemoModel } from './demo-data';
import { InMemoryCrmClient } from './in-memory-crm.client';

describe('InMemoryCrmClient', () => {
  const client = new InMemoryCrmClient(createDemoModel());

  it('answers APIv4 calls with the rows of the model', async () => {
    const rows = await client.api4('Contact', 'get', {
      select: ['display_name'],
      where: [['id', '=', DEMO_ORG_ID]],
    });
    expect(rows).toEqual([{ id: DEMO_ORG_ID, display_name: 'Riverbend Food Co-op' }]);
  });

  it('turns a CiviCRM error into CrmError failed with the call and the status', async () => {
    const failure = client.api4('Activity', 'create', {
      values: { 'activity_type_id:name': ACTIVITY_TYPE_NAME, target_contact_id: [DEMO_ORG_ID] },
    });
    await expect(failure).rejects.toBeInstanceOf(CrmError);
    await expect(failure).rejects.toMatchObject({
      failure: 'failed',
      call: 'Activity.create',
      httpStatus: 500,
      message: expect.stringContaining('source_contact_id'),
    });
  });

  it('normalizes v3 values to an array', async () => {
    const [file] = await client.api4('File', 'get', { select: ['id'], limit: 1 });
    const rows = await client.api3('Attachment', 'get', { id: file?.['id'], return: 'id,url' });
    expect(rows).toEqual([
      { id: String(file?.['id']), url: expect.stringContaining('/civicrm/file?reset=1') },
    ]);
  });

  it('turns a v3 is_error into CrmError failed', async () => {
    const failure = client.api3('Attachment', 'get', {
      id: { IN: [1] },
      return: ['id', 'url'],
      sequential: 1,
    });
    await expect(failure).rejects.toMatchObject({ failure: 'failed', call: 'v3 Attachment.get' });
  });

  it('does not share state between callers', async () => {
    const params: Api4Params = { select: ['first_name'], where: [['id', '=', DEMO_PERSON_ID]] };
    const [first] = await client.api4('Contact', 'get', params);
    if (first) first['first_name'] = 'Mallory';
    const [again] = await client.api4('Contact', 'get', params);
    expect(again?.['first_name']).toBe('Marisol');
  });

  it('waits the configured latency before answering', async () => {
    const slow = new InMemoryCrmClient(createDemoModel(), { latencyMs: 30 });
    const started = performance.now();
    await slow.api4('Contact', 'get', { limit: 1 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });
});
