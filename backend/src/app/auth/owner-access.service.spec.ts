import type { AppConfig } from '../config/app-config';
import { CIVICRM_CHECKSUM_SHAPE } from '../crm/crm-client';
import { loadAppConfig } from '../config/app-config';
import { type Api4Params, type CrmClient, type CrmRow, batchOneByOne } from '../crm/crm-client';
import { AppError } from '../errors/app-error';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { RedisConnection } from '../rate-limit/redis-connection';
import { CrmContactsGateway } from '../crm/contacts.gateway';
import { OwnerAccessService } from './owner-access.service';

/** Checksums of the shape CiviCRM issues (md5 hex, time, lifetime). */
const SUM = `${'5'.repeat(32)}_1767225600_inf`;
const WRONG = `${'b'.repeat(32)}_1767225600_inf`;
const guess = (attempt: number) => `${attempt.toString(16).padStart(32, '0')}_1767225600_168`;

type Planned = (params: Api4Params) => CrmRow[];

/** A strict fake: every call must be planned, and every call is recorded. */
class FakeCrm implements CrmClient {
  readonly batch: CrmClient['batch'] = (calls) => batchOneByOne(this, calls);
  readonly fileBaseUrl = null;
  readonly checksumShape = CIVICRM_CHECKSUM_SHAPE;
  readonly calls: string[] = [];
  private readonly plans = new Map<string, Planned>();

  plan(call: string, answer: Planned): this {
    this.plans.set(call, answer);
    return this;
  }

  async api4<T extends CrmRow = CrmRow>(
    entity: string,
    action: string,
    params: Api4Params = {},
  ): Promise<T[]> {
    const call = `${entity}.${action}`;
    this.calls.push(call);
    const plan = this.plans.get(call);
    if (!plan) throw new Error(`unplanned CRM call ${call}`);
    return plan(params) as T[];
  }

  async api3<T extends CrmRow = CrmRow>(entity: string, action: string): Promise<T[]> {
    throw new Error(`unplanned CRM call v3 ${entity}.${action}`);
  }

  async createFile<T extends CrmRow = CrmRow>(): Promise<T[]> {
    throw new Error('unplanned CRM call File.create');
  }
}

const PERSON = 101;
const ORG = 201;
const OTHER_ORG = 202;

function relationship(personId: number, orgId: number, personSide: 'a' | 'b' = 'a'): CrmRow {
  return personSide === 'a'
    ? {
        contact_id_a: personId,
        contact_id_b: orgId,
        'relationship_type_id.contact_type_a': 'Individual',
        'relationship_type_id.contact_type_b': 'Organization',
      }
    : {
        contact_id_a: orgId,
        contact_id_b: personId,
        'relationship_type_id.contact_type_a': 'Organization',
        'relationship_type_id.contact_type_b': 'Individual',
      };
}

function setup(options: { valid?: boolean; relationships?: CrmRow[]; config?: Partial<AppConfig> } = {}) {
  const crm = new FakeCrm()
    .plan('Contact.validateChecksum', () => [{ valid: options.valid ?? true }])
    .plan('Relationship.get', () => options.relationships ?? [relationship(PERSON, ORG)]);
  const config = { ...loadAppConfig({}), ...options.config } as AppConfig;
  const service = new OwnerAccessService(
    new CrmContactsGateway(crm),
    config,
    new RateLimitService(new RedisConnection(config), config),
  );
  return { crm, service };
}

async function refusal(promise: Promise<unknown>): Promise<{ statusCode: number; code: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return { statusCode: error.statusCode, code: error.code };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('OwnerAccessService', () => {
  it('grants the person and the organization tied by an active Primary Contact relationship', async () => {
    const { service } = setup();
    await expect(service.authorize({ cid: '101', cs: SUM, orgId: '201' }, '1.2.3.4')).resolves.toEqual({
      contactId: PERSON,
      orgId: ORG,
    });
  });

  it('validates the checksum and reads the relationships in the same round trip', async () => {
    const { crm, service } = setup();
    await service.authorize({ cid: '101', cs: SUM }, '1.2.3.4');
    expect(crm.calls.sort()).toEqual(['Contact.validateChecksum', 'Relationship.get']);
  });

  it('refuses a missing, empty or non-numeric cid or cs with 401 before calling the CRM', async () => {
    const { crm, service } = setup();
    for (const link of [
      {},
      { cid: '101' },
      { cid: '101', cs: '' },
      { cid: 'abc', cs: 'x' },
      { cid: '-1', cs: 'x' },
      { cid: '101', cs: ` ${SUM}` },
      { cid: '101', cs: `${SUM} ` },
      { cid: '101', cs: SUM.replace('_', ' ') },
    ]) {
      await expect(refusal(service.authorize(link, 'ip'))).resolves.toEqual({
        statusCode: 401,
        code: 'CHECKSUM_INVALID',
      });
    }
    expect(crm.calls).toEqual([]);
  });

  it('refuses a checksum the CRM does not accept with 401', async () => {
    const { service } = setup({ valid: false });
    await expect(refusal(service.authorize({ cid: '101', cs: WRONG }, 'ip'))).resolves.toEqual({
      statusCode: 401,
      code: 'CHECKSUM_INVALID',
    });
  });

  it('refuses a contactId that is not the cid with 403', async () => {
    const { service } = setup();
    await expect(
      refusal(service.authorize({ cid: '101', cs: SUM, contactId: '102' }, 'ip')),
    ).resolves.toEqual({
      statusCode: 403,
      code: 'CONTACT_MISMATCH',
    });
  });

  it('refuses an organization the person is not the primary contact of with 403', async () => {
    const { service } = setup();
    await expect(
      refusal(service.authorize({ cid: '101', cs: SUM, orgId: String(OTHER_ORG) }, 'ip')),
    ).resolves.toEqual({
      statusCode: 403,
      code: 'ORG_NOT_ALLOWED',
    });
  });

  it('uses the only organization when orgId is absent, and asks for one when there are several', async () => {
    await expect(setup().service.authorize({ cid: '101', cs: SUM }, 'ip')).resolves.toEqual({
      contactId: 101,
      orgId: 201,
    });
    const several = setup({ relationships: [relationship(PERSON, ORG), relationship(PERSON, OTHER_ORG)] });
    await expect(refusal(several.service.authorize({ cid: '101', cs: SUM }, 'ip'))).resolves.toEqual({
      statusCode: 400,
      code: 'ORG_REQUIRED',
    });
  });

  it('reads which side is the person from the relationship type', async () => {
    const reversed = setup({ relationships: [relationship(PERSON, ORG, 'b')] });
    await expect(reversed.service.authorize({ cid: '101', cs: SUM }, 'ip')).resolves.toEqual({
      contactId: 101,
      orgId: 201,
    });
    // The person on the organization's side of a relationship is not its primary contact.
    const wrongSide = setup({ relationships: [relationship(ORG, PERSON)] });
    await expect(refusal(wrongSide.service.authorize({ cid: '101', cs: SUM }, 'ip'))).resolves.toMatchObject({
      statusCode: 403,
    });
  });

  it('caches a successful check, but never a failed one', async () => {
    const ok = setup();
    await ok.service.authorize({ cid: '101', cs: SUM }, 'ip');
    await ok.service.authorize({ cid: '101', cs: SUM, orgId: '201' }, 'ip');
    expect(ok.crm.calls).toHaveLength(2);

    const failing = setup({ valid: false });
    await refusal(failing.service.authorize({ cid: '101', cs: WRONG }, 'ip'));
    await refusal(failing.service.authorize({ cid: '101', cs: WRONG }, 'ip'));
    expect(failing.crm.calls.filter((call) => call === 'Contact.validateChecksum')).toHaveLength(2);
  });

  it('validates again once the cached check is older than the cache time', async () => {
    // Not at 0: the cache takes a start time of 0 for "no expiry".
    jest.useFakeTimers({ now: 1_000 });
    try {
      const { crm, service } = setup();
      await service.authorize({ cid: '101', cs: SUM }, 'ip');
      jest.setSystemTime(1_000 + 5 * 60_000 + 1);
      await service.authorize({ cid: '101', cs: SUM }, 'ip');
      expect(crm.calls.filter((call) => call === 'Contact.validateChecksum')).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('refuses further checks from an address after ten failures, without asking the CRM', async () => {
    const { crm, service } = setup({ valid: false });
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await expect(
        refusal(service.authorize({ cid: '101', cs: guess(attempt) }, '9.9.9.9')),
      ).resolves.toMatchObject({
        statusCode: 401,
      });
    }
    const callsBefore = crm.calls.length;
    await expect(refusal(service.authorize({ cid: '101', cs: guess(10) }, '9.9.9.9'))).resolves.toEqual({
      statusCode: 429,
      code: 'RATE_LIMITED',
    });
    expect(crm.calls).toHaveLength(callsBefore);
    // Another address is not affected.
    await expect(refusal(service.authorize({ cid: '101', cs: guess(0) }, '8.8.8.8'))).resolves.toMatchObject({
      statusCode: 401,
    });
  });

  it('lets at most the limit of 100 concurrent guesses from one address reach the CRM', async () => {
    const { crm, service } = setup({ valid: false });
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, (_, attempt) =>
        refusal(service.authorize({ cid: '101', cs: guess(attempt) }, '9.9.9.9')),
      ),
    );
    expect(crm.calls.filter((call) => call === 'Contact.validateChecksum')).toHaveLength(10);
    expect(outcomes.filter((outcome) => outcome.statusCode === 401)).toHaveLength(10);
    expect(outcomes.filter((outcome) => outcome.statusCode === 429)).toHaveLength(90);
  });

  it('gives a successful check its attempt back, so owners who get in never use up the limit', async () => {
    const { service } = setup({ config: { checksumCacheMs: 0 } });
    for (let attempt = 0; attempt < 30; attempt += 1) {
      await expect(service.authorize({ cid: '101', cs: SUM }, '9.9.9.9')).resolves.toMatchObject({
        contactId: PERSON,
      });
    }
  });

  it('counts preview links on their own counter: owners failing on the address do not block them', async () => {
    const { service } = setup({ valid: false });
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await refusal(service.authorize({ cid: '101', cs: guess(attempt) }, '9.9.9.9'));
    }
    await expect(
      refusal(service.authorize({ cid: '101', cs: 'made-by-crm' }, '9.9.9.9', 'preview-checksum')),
    ).resolves.toMatchObject({ statusCode: 401 });
  });
});
