import type { FieldConfig } from '@checkin/contract';
import type { CheckInPosition, CheckInRecord } from '../check-ins/check-in-record';
import { checkInRecord } from '../check-ins/testing/check-in-record';
import type { CheckInRead, CrmCheckInsGateway } from '../crm/check-ins.gateway';
import { MAX_CALLS_PER_BATCH } from '../crm/crm-call-batcher';
import type { CrmContactsGateway } from '../crm/contacts.gateway';
import type { SiteMetadataCache } from '../crm/site-metadata.cache';
import { FormDataService, PREFILL_FIRST_SLICE, PREFILLED_ACTIVITY_FIELDS } from './form-data.service';

const ORG_ID = 20;
const FILES = ['Feasibility_study', 'Business_plan'];
const PREFILLED = PREFILLED_ACTIVITY_FIELDS.map((field) => field.name);

interface History {
  /** What the newest-slice read answers, newest first. */
  newest: CheckInRecord[];
  /** The newest check-in older than `olderThan` (if given) that answered or cleared the field. */
  settling?: (field: string, olderThan: CheckInPosition | undefined) => CheckInRecord | undefined;
  /** What a read of every older check-in answers. */
  older?: CheckInRecord[];
  inactive?: string[];
}

/** FormDataService over a gateway that answers from `history` and records each check-in read. */
function serviceOver({ newest, settling = () => undefined, older = [], inactive = [] }: History) {
  const reads: Array<{ fields: string[]; read: CheckInRead }> = [];
  const checkIns = {
    list: (_orgId: number, fields: readonly FieldConfig[], read: CheckInRead) => {
      reads.push({ fields: fields.map((field) => field.name), read });
      if (read.answeredOrCleared) {
        const found = settling(read.answeredOrCleared.name, read.olderThan);
        return Promise.resolve(found ? [found] : []);
      }
      return Promise.resolve(read.limit === PREFILL_FIRST_SLICE ? newest : older);
    },
    currentStageValue: () => Promise.resolve(null),
  } as unknown as CrmCheckInsGateway;
  const contacts = {
    personIdentity: () => Promise.resolve({ firstName: 'A', lastName: 'B', email: null }),
    readOrganization: () => Promise.resolve({ id: ORG_ID, name: 'Co-op', values: {} }),
  } as unknown as CrmContactsGateway;
  const metadata = {
    inactive: () => Promise.resolve(new Set(inactive)),
    options: () => Promise.resolve({ options: {}, stages: [] }),
    valueFormat: () => Promise.resolve({ currency: 'USD', locale: 'en-US' }),
  } as unknown as SiteMetadataCache;
  return { service: new FormDataService(contacts, checkIns, metadata), reads };
}

function field(name: string): FieldConfig {
  return PREFILLED_ACTIVITY_FIELDS.find((candidate) => candidate.name === name) as FieldConfig;
}

/** The form's first request: the newest slice with every prefilled column, and per file field its newest answering or clearing check-in. */
function firstRequest(prefilled: string[] = PREFILLED) {
  return [
    { fields: prefilled, read: { cleared: true, limit: PREFILL_FIRST_SLICE } },
    ...FILES.filter((name) => prefilled.includes(name)).map((name) => ({
      fields: [name],
      read: { cleared: true, answeredOrCleared: field(name), limit: 1 },
    })),
  ];
}

/** `count` check-ins, a day apart, newest first, from 2026-06-30 back; `values(index)` answers of each. */
function history(count: number, values: (index: number) => Partial<CheckInRecord> = () => ({})) {
  return Array.from({ length: count }, (_, index) => {
    const date = new Date(Date.UTC(2026, 5, 30 - index, 10)).toISOString();
    return checkInRecord(1000 - index, date, {}, values(index));
  });
}

describe('FormDataService prefill reads', () => {
  it('holds the second request’s reads, one per prefilled field, in one batch', () => {
    expect(PREFILLED_ACTIVITY_FIELDS.length).toBeLessThanOrEqual(MAX_CALLS_PER_BATCH);
  });

  it('reads the newest slice and the files’ newest only, when the co-op has fewer check-ins than a slice', async () => {
    const newest = history(5, (index) => (index === 2 ? { values: { Store_size_sqft: 4200 } } : {}));
    const plan = checkInRecord(7, '2026-05-01T10:00:00.000Z', { Business_plan: { id: 3 } });
    const { service, reads } = serviceOver({
      newest,
      settling: (name) => (name === 'Business_plan' ? plan : undefined),
    });

    const data = await service.load({ contactId: 1, orgId: ORG_ID } as never);

    expect(reads).toEqual(firstRequest());
    expect(data.prefill['Store_size_sqft']).toBe(4200);
    expect(data.lastGiven?.['Store_size_sqft']).toBe(newest[2]?.date);
    expect(data.prefill['Business_plan']).toEqual({ id: 3 });
    expect(data.prefill['Feasibility_study']).toBeUndefined();
  });

  it('reads nothing more when the newest slice answers or clears every prefilled field', async () => {
    const cleared = new Set(PREFILLED.filter((name) => name !== 'Equity_goal'));
    const newest = history(PREFILL_FIRST_SLICE, (index) =>
      index === 0 ? { cleared } : index === 4 ? { values: { Equity_goal: 50_000 } } : {},
    );
    const { service, reads } = serviceOver({ newest });

    const data = await service.load({ contactId: 1, orgId: ORG_ID } as never);

    expect(reads).toEqual(firstRequest());
    expect(data.prefill['Equity_goal']).toBe(50_000);
  });

  it('reads, once authorized, per field the slice left unsettled, its newest older answering or clearing check-in: a second request', async () => {
    const newest = history(PREFILL_FIRST_SLICE, () => ({ values: { Steering_committee_size: 9 } }));
    const oldest = newest.at(-1) as CheckInRecord;
    const older: Record<string, CheckInRecord> = {
      Store_size_sqft: checkInRecord(40, '2024-03-01T10:00:00.000Z', { Store_size_sqft: 4200 }),
      Equity_goal: checkInRecord(30, '2023-05-01T10:00:00.000Z', {}, { cleared: new Set(['Equity_goal']) }),
      Feasibility_study: checkInRecord(2, '2021-01-04T10:00:00.000Z', { Feasibility_study: { id: 8 } }),
    };
    let authorize = (): void => undefined;
    const authorized = new Promise<void>((resolve) => (authorize = resolve));
    const { service, reads } = serviceOver({ newest, settling: (name) => older[name] });

    const loading = service.load({ contactId: 1, orgId: ORG_ID } as never, authorized);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toEqual(firstRequest());
    authorize();
    const data = await loading;

    const unsettled = PREFILLED.filter((name) => !FILES.includes(name) && name !== 'Steering_committee_size');
    expect(reads.slice(firstRequest().length)).toEqual(
      unsettled.map((name) => ({
        fields: [name],
        read: { cleared: true, answeredOrCleared: field(name), limit: 1, olderThan: oldest.position },
      })),
    );
    expect(data.prefill['Steering_committee_size']).toBe(9);
    expect(data.prefill['Store_size_sqft']).toBe(4200);
    expect(data.lastGiven?.['Store_size_sqft']).toBe('2024-03-01T10:00:00.000Z');
    expect(data.prefill['Equity_goal']).toBeUndefined();
    expect(data.prefill['Feasibility_study']).toEqual({ id: 8 });
  });

  it('never reads a field the site disabled, not even its column', async () => {
    const newest = history(PREFILL_FIRST_SLICE);
    const { service, reads } = serviceOver({ newest, inactive: ['Store_size_sqft', 'Business_plan'] });

    await service.load({ contactId: 1, orgId: ORG_ID } as never);

    const offered = PREFILLED.filter((name) => !['Store_size_sqft', 'Business_plan'].includes(name));
    expect(reads.slice(0, 2)).toEqual(firstRequest(offered));
    expect(reads.flatMap((read) => read.fields)).not.toContain('Store_size_sqft');
    expect(reads.flatMap((read) => read.fields)).not.toContain('Business_plan');
  });

  it('reads on past a found check-in that settles nothing: the same answer as reading them all', async () => {
    // The CRM counted its column as not empty, yet it reads as no answer.
    const unreadable = checkInRecord(12, '2026-01-01T10:00:00.000Z', {});
    const alsoUnreadable = checkInRecord(11, '2025-06-01T10:00:00.000Z', {});
    const cleared = new Set(PREFILLED.filter((name) => name !== 'Feasibility_study'));
    const newest = history(PREFILL_FIRST_SLICE, (index) => (index === 0 ? { cleared } : {}));
    const { service, reads } = serviceOver({
      newest,
      settling: (name, olderThan) => {
        if (name !== 'Feasibility_study') return undefined;
        return olderThan ? alsoUnreadable : unreadable;
      },
      older: [checkInRecord(3, '2021-01-04T10:00:00.000Z', { Feasibility_study: { id: 5 } })],
    });

    const data = await service.load({ contactId: 1, orgId: ORG_ID } as never);

    expect(reads.slice(firstRequest().length)).toEqual([
      {
        fields: ['Feasibility_study'],
        read: {
          cleared: true,
          answeredOrCleared: field('Feasibility_study'),
          limit: 1,
          olderThan: unreadable.position,
        },
      },
      { fields: ['Feasibility_study'], read: { cleared: true, olderThan: alsoUnreadable.position } },
    ]);
    expect(data.prefill['Feasibility_study']).toEqual({ id: 5 });
  });
});
