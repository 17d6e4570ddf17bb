import { type AppConfig, loadAppConfig } from '../config/app-config';
import { CIVICRM_CHECKSUM_SHAPE } from './crm-client';
import { type CrmClient, type CrmRow, batchOneByOne } from './crm-client';
import { SiteMetadataCache } from './site-metadata.cache';
import { CrmSiteGateway } from './site.gateway';

/** Answers CustomField.get when told to, so a test decides when a load finishes. */
class SlowCrm implements CrmClient {
  readonly batch: CrmClient['batch'] = (calls) => batchOneByOne(this, calls);
  readonly fileBaseUrl = null;
  readonly checksumShape = CIVICRM_CHECKSUM_SHAPE;
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
  return { crm, schema: new SiteMetadataCache(new CrmSiteGateway(crm), config) };
}

describe('SiteMetadataCache custom fields', () => {
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

/** Answers every call at once, with the rows it is given. */
class AnsweringCrm implements CrmClient {
  readonly batch: CrmClient['batch'] = (calls) => batchOneByOne(this, calls);
  readonly fileBaseUrl = null;
  readonly checksumShape = CIVICRM_CHECKSUM_SHAPE;
  constructor(private readonly rows: Record<string, unknown[]>) {}

  async api4<T extends CrmRow = CrmRow>(entity: string, action: string): Promise<T[]> {
    return (this.rows[`${entity}.${action}`] ?? []) as T[];
  }

  async api3<T extends CrmRow = CrmRow>(): Promise<T[]> {
    throw new Error('unplanned v3 call');
  }

  async createFile<T extends CrmRow = CrmRow>(): Promise<T[]> {
    throw new Error('unplanned File.create');
  }
}

describe('SiteMetadataCache row checks', () => {
  const config = { ...loadAppConfig({}), schemaCacheMs: 60_000 } as AppConfig;

  it('refuses a custom field row without a group name, as every other read refuses a malformed row', async () => {
    const crm = new AnsweringCrm({ 'CustomField.get': [{ id: 3, name: 'Stage' }] });
    const cache = new SiteMetadataCache(new CrmSiteGateway(crm), config);
    await expect(cache.customFields()).rejects.toMatchObject({ failure: 'malformed' });
  });

  it('refuses an option row whose group is not an id', async () => {
    const crm = new AnsweringCrm({
      'CustomField.get': [
        {
          id: 3,
          name: 'Stage',
          label: 'Stage',
          data_type: 'String',
          html_type: 'Select',
          option_group_id: 9,
          serialize: 0,
          'custom_group_id:name': 'Check_in_data__organizing_',
        },
      ],
      'OptionValue.get': [
        { option_group_id: 'nine', value: '1', label: 'Inquiry', name: 'inquiry', weight: 1 },
      ],
    });
    const cache = new SiteMetadataCache(new CrmSiteGateway(crm), config);
    await expect(cache.options([])).rejects.toMatchObject({ failure: 'malformed' });
  });
});
