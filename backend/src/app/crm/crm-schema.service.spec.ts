import { type AppConfig, loadAppConfig } from '../config/app-config';
import { type CrmClient, type CrmRow, batchOneByOne } from './crm-client';
import { CrmSchemaService } from './crm-schema.service';

/** Answers CustomField.get when told to, so a test decides when a load finishes. */
class SlowCrm implements CrmClient {
  readonly batch: CrmClient['batch'] = (calls) => batchOneByOne(this, calls);
  readonly fileBaseUrl = null;
  readonly calls: string[] = [];
  private readonly pending: Array<{ resolve: (rows: CrmRow[]) => void; reject: (error: Error) => void }> = [];

  async api4<T extends CrmRow = CrmRow>(entity: string, action: string): Promise<T[]> {
    this.calls.push(`${entity}.${action}`);
    return new Promise<T[]>((resolve, reject) =>
      this.pending.push({ resolve: (rows) => resolve(rows as T[]), reject }),
    );
  }

  async api3<T extends CrmRow = CrmRow>(): Promise<T[]> {
    throw new Error('unplanned v3 call');
  }

  async createFile<T extends CrmRow = CrmRow>(): Promise<T[]> {
    throw new Error('unplanned File.create');
  }

  answer(): void {
    for (const load of this.pending.splice(0)) load.resolve([]);
  }

  fail(): void {
    for (const load of this.pending.splice(0)) load.reject(new Error('CRM down'));
  }
}

function setup(schemaCacheMs: number) {
  const crm = new SlowCrm();
  const config = { ...loadAppConfig({}), schemaCacheMs } as AppConfig;
  return { crm, schema: new CrmSchemaService(crm, config) };
}

describe('CrmSchemaService custom field cache', () => {
  it('makes one CRM call for two concurrent loads, and none while the entry is fresh', async () => {
    const { crm, schema } = setup(60_000);
    const both = Promise.all([schema.customFields(), schema.customFields()]);
    crm.answer();
    const [first, second] = await both;
    expect(first).toBe(second);
    await expect(schema.customFields()).resolves.toBe(first);
    expect(crm.calls).toEqual(['CustomField.get']);
  });

  it('keeps no failed load: the next caller asks the CRM again', async () => {
    const { crm, schema } = setup(60_000);
    const failed = schema.customFields();
    crm.fail();
    await expect(failed).rejects.toThrow('CRM down');
    const retried = schema.customFields();
    crm.answer();
    await expect(retried).resolves.toEqual(new Map());
    expect(crm.calls).toEqual(['CustomField.get', 'CustomField.get']);
  });

  it('with SCHEMA_CACHE_SECONDS=0 loads on every call, yet concurrent callers still share one load', async () => {
    const { crm, schema } = setup(0);
    const both = Promise.all([schema.customFields(), schema.customFields()]);
    crm.answer();
    await both;
    const again = schema.customFields();
    crm.answer();
    await again;
    expect(crm.calls).toEqual(['CustomField.get', 'CustomField.get']);
  });
});
