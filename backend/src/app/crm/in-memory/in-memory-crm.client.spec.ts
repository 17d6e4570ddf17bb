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

  const certificateId = async () => {
    const [org] = await client.api4('Contact', 'get', {
      select: ['Food_Co_op_Organizing.Certificate_of_Incorporation'],
      where: [['id', '=', DEMO_ORG_ID]],
    });
    return Number(org?.['Food_Co_op_Organizing.Certificate_of_Incorporation']);
  };

  it('normalizes v3 values to an array (Attachment.get ignores return)', async () => {
    const id = await certificateId();
    const rows = await client.api3('Attachment', 'get', { id, return: 'id,url' });
    expect(rows).toEqual([
      expect.objectContaining({ id: String(id), url: expect.stringContaining('/civicrm/file?reset=1') }),
    ]);
  });

  it('turns a v3 is_error into CrmError failed', async () => {
    const failure = client.api3('Attachment', 'get', { id: await certificateId(), return: ['id', 'url'] });
    await expect(failure).rejects.toMatchObject({ failure: 'failed', call: 'v3 Attachment.get' });
  });

  it('turns the HTTP 500 of a v3 Attachment.get with id IN into CrmError failed with the status', async () => {
    const failure = client.api3('Attachment', 'get', { id: { IN: [await certificateId()] }, sequential: 1 });
    await expect(failure).rejects.toMatchObject({
      failure: 'failed',
      call: 'v3 Attachment.get',
      httpStatus: 500,
    });
  });

  it('marks createFile content as base64, as the live client does, so the extension decodes it', async () => {
    const model = createDemoModel();
    const own = new InMemoryCrmClient(model);
    const [file] = await own.createFile({
      fileName: 'market study.pdf',
      mimeType: 'application/pdf',
      bytes: new Uint8Array(Buffer.from('%PDF-1.7 x')),
    });
    expect(file).toMatchObject({ file_name: 'market_study.pdf', checkin_content_decoded: true });
    expect(model.getFile(Number(file?.['id']))?.content.toString()).toBe('%PDF-1.7 x');
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
