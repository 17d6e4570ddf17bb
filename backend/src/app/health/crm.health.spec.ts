import { HealthIndicatorService } from '@nestjs/terminus';
import { CIVICRM_CHECKSUM_SHAPE } from '../crm/crm-client';
import type { AppConfig } from '../config/app-config';
import { type Api4Params, type CrmClient, type CrmRow, batchOneByOne } from '../crm/crm-client';
import { CrmError, type CrmFailure } from '../crm/crm-errors';
import { CrmSiteGateway } from '../crm/site.gateway';
import { CrmHealthIndicator } from './crm.health';

/** A CRM that answers Contact.get with one row, or fails as told, and refuses anything else. */
class FakeCrm implements CrmClient {
  readonly batch: CrmClient['batch'] = (calls) => batchOneByOne(this, calls);
  readonly fileBaseUrl = null;
  readonly checksumShape = CIVICRM_CHECKSUM_SHAPE;
  readonly calls: Array<{ entity: string; action: string; params?: Api4Params }> = [];
  failure?: CrmFailure | Error;

  async api4<T extends CrmRow = CrmRow>(entity: string, action: string, params?: Api4Params): Promise<T[]> {
    this.calls.push({ entity, action, params });
    if (entity !== 'Contact' || action !== 'get') throw new Error(`unplanned call ${entity}.${action}`);
    if (this.failure instanceof Error) throw this.failure;
    if (this.failure) throw new CrmError(this.failure, 'Contact.get', 'detail for the log only');
    return [{ id: 1 } as unknown as T];
  }

  async api3<T extends CrmRow = CrmRow>(): Promise<T[]> {
    throw new Error('unplanned v3 call');
  }

  async createFile<T extends CrmRow = CrmRow>(): Promise<T[]> {
    throw new Error('unplanned File.create');
  }
}

describe('CrmHealthIndicator', () => {
  let crm: FakeCrm;
  let indicator: CrmHealthIndicator;

  beforeEach(() => {
    crm = new FakeCrm();
    indicator = new CrmHealthIndicator(new HealthIndicatorService(), new CrmSiteGateway(crm), {
      readyProbeCacheMs: 0,
    } as AppConfig);
  });

  it('is up after one cheap read: Contact.get, id only, one row', async () => {
    expect(await indicator.isReachable()).toEqual({ crm: { status: 'up' } });
    expect(crm.calls).toEqual([{ entity: 'Contact', action: 'get', params: { select: ['id'], limit: 1 } }]);
  });

  it('reports under the key it is given', async () => {
    expect(await indicator.isReachable('civicrm')).toEqual({ civicrm: { status: 'up' } });
  });

  it.each<[CrmFailure, string]>([
    ['unreachable', 'The CRM could not be reached.'],
    ['timeout', 'The CRM did not answer in time.'],
    // A 401 without CiviCRM's reason: the fix names what stands in front of CiviCRM.
    [
      'unauthorized',
      "The CRM refused the service's credentials. Fix: something in front of CiviCRM refused the request (HTTP 401 without CiviCRM's reason): check CRM_BASIC_AUTH_USER and CRM_BASIC_AUTH_PASSWORD, and CRM_BASE_URL.",
    ],
    ['failed', 'The CRM answered with an error.'],
    ['malformed', 'The CRM answered with something other than its API envelope.'],
  ])(
    'is down when the CRM call fails (%s), with a sentence and not the CRM detail',
    async (failure, message) => {
      crm.failure = failure;
      const result = await indicator.isReachable();
      expect(result).toEqual({ crm: { status: 'down', failure, message } });
      expect(JSON.stringify(result)).not.toContain('detail for the log only');
    },
  );

  it('lets a programming error through instead of calling it an outage', async () => {
    crm.failure = new TypeError('cannot read properties of undefined');
    await expect(indicator.isReachable()).rejects.toThrow(TypeError);
  });

  it('shares one readiness probe between every caller for READY_PROBE_CACHE_MS', async () => {
    const shared = new CrmHealthIndicator(new HealthIndicatorService(), new CrmSiteGateway(crm), {
      readyProbeCacheMs: 200,
    } as AppConfig);
    const results = await Promise.all(Array.from({ length: 500 }, () => shared.sharedReachability()));
    expect(results.every((result) => result['crm']?.status === 'up')).toBe(true);
    expect(await shared.sharedReachability()).toEqual({ crm: { status: 'up' } });
    expect(crm.calls).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 250));
    crm.failure = 'unreachable';
    expect((await shared.sharedReachability())['crm']?.status).toBe('down');
    expect(crm.calls).toHaveLength(2);
  });
});
