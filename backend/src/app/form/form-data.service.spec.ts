import type { CheckInRecord } from '../check-ins/check-in-record';
import { checkInRecord } from '../check-ins/testing/check-in-record';
import type { CheckInRead, CrmCheckInsGateway } from '../crm/check-ins.gateway';
import type { CrmContactsGateway } from '../crm/contacts.gateway';
import type { SiteMetadataCache } from '../crm/site-metadata.cache';
import type { FieldConfig } from '@checkin/contract';
import { FormDataService } from './form-data.service';

const ORG_ID = 20;

/**
 * The check-in reads of FormDataService.activityPrefill over a gateway that answers, per field,
 * the given newest answering or clearing check-in, and the given older ones.
 */
function serviceOver(newest: Record<string, CheckInRecord>, older: CheckInRecord[]) {
  const reads: Array<{ fields: string[]; read: CheckInRead }> = [];
  const checkIns = {
    list: (_orgId: number, fields: readonly FieldConfig[], read: CheckInRead) => {
      reads.push({ fields: fields.map((field) => field.name), read });
      const field = read.answeredOrCleared?.name;
      if (field) return Promise.resolve(newest[field] ? [newest[field]] : []);
      return Promise.resolve(older);
    },
    currentStageValue: () => Promise.resolve(null),
  } as unknown as CrmCheckInsGateway;
  const contacts = {
    personIdentity: () => Promise.resolve({ firstName: 'A', lastName: 'B', email: null }),
    readOrganization: () => Promise.resolve({ id: ORG_ID, name: 'Co-op', values: {} }),
  } as unknown as CrmContactsGateway;
  const metadata = {
    inactive: () => Promise.resolve(new Set<string>()),
    options: () => Promise.resolve({ options: {}, stages: [] }),
    valueFormat: () => Promise.resolve({ currency: 'USD', locale: 'en-US' }),
  } as unknown as SiteMetadataCache;
  return { service: new FormDataService(contacts, checkIns, metadata), reads };
}

describe('FormDataService prefill reads', () => {
  it('prefills each field from its own newest answering or clearing check-in, reading nothing older', async () => {
    const { service, reads } = serviceOver(
      {
        Store_size_sqft: checkInRecord(9, '2026-03-01T10:00:00.000Z', { Store_size_sqft: 4200 }),
        Equity_goal: checkInRecord(7, '2026-05-01T10:00:00.000Z', {}, { cleared: new Set(['Equity_goal']) }),
      },
      [],
    );

    const data = await service.load({ contactId: 1, orgId: ORG_ID } as never);

    expect(data.prefill['Store_size_sqft']).toBe(4200);
    expect(data.lastGiven?.['Store_size_sqft']).toBe('2026-03-01T10:00:00.000Z');
    expect(data.prefill['Equity_goal']).toBeUndefined();
    expect(reads.every(({ read }) => read.limit === 1 && read.answeredOrCleared !== undefined)).toBe(true);
  });

  it('reads the older check-ins, once authorized, only for a field whose found check-in settles nothing', async () => {
    // The CRM counted its column as not empty, yet it reads as no answer.
    const unreadable = checkInRecord(12, '2026-06-01T10:00:00.000Z', {});
    let authorize = (): void => undefined;
    const authorized = new Promise<void>((resolve) => (authorize = resolve));
    const { service, reads } = serviceOver(
      {
        Store_size_sqft: unreadable,
        Equity_goal: checkInRecord(11, '2026-05-01T10:00:00.000Z', {}),
      },
      [checkInRecord(3, '2025-01-01T10:00:00.000Z', { Store_size_sqft: 3900, Equity_goal: 50_000 })],
    );

    const loading = service.load({ contactId: 1, orgId: ORG_ID } as never, authorized);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads.filter(({ read }) => read.olderThan)).toEqual([]);
    authorize();
    const data = await loading;

    const olderReads = reads.filter(({ read }) => read.olderThan);
    expect(olderReads).toEqual([
      {
        fields: ['Store_size_sqft', 'Equity_goal'],
        read: { cleared: true, olderThan: unreadable.position },
      },
    ]);
    expect(data.prefill['Store_size_sqft']).toBe(3900);
    expect(data.prefill['Equity_goal']).toBe(50_000);
  });
});
