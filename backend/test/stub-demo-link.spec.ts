import { STUB_DEMO_CHECKSUM } from '../src/app/crm/in-memory/demo-data';
import { DEMO_LINK, startTestApp, type TestApp } from './support/test-app';

/** docs/decisions.md, "Stub mode": the demo link the start-up log prints opens the demo co-op. */
describe('stub mode demo link', () => {
  let service: TestApp;

  beforeAll(async () => {
    service = await startTestApp({ stub: true });
  });

  afterAll(async () => {
    await service.close();
  });

  const dataPath = (cs: string) =>
    `/api/data?${new URLSearchParams({ ...DEMO_LINK, cid: String(DEMO_LINK.cid), contactId: String(DEMO_LINK.contactId), orgId: String(DEMO_LINK.orgId), cs })}`;

  it('opens the demo co-op with the checksum `demo`', async () => {
    expect(STUB_DEMO_CHECKSUM).toBe('demo');
    const response = await service.get(dataPath('demo'));
    expect(response.status).toBe(200);
  });

  it('refuses any other short checksum', async () => {
    const response = await service.get(dataPath('demo2'));
    expect(response.status).toBe(401);
  });
});
