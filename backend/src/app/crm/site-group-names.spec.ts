import type { Api4Call, Api4CallResult, Api4Params, CrmClient, CrmRow } from './crm-client';
import { CIVICRM_CHECKSUM_SHAPE } from './crm-client';
import { ACTIVITY_CUSTOM_GROUP, CONTACT_CUSTOM_GROUP } from './crm-names';
import { wrapForSiteGroupNames } from './site-group-names';

const SITE_ACTIVITY_GROUP = 'Check_in_data_organizing_';

/** A site that stores the activity group under CiviCRM's munged name and answers with set rows. */
function siteAnswering(rows: CrmRow[]) {
  const sent: Api4Params[] = [];
  const inner: CrmClient = {
    fileBaseUrl: null,
    checksumShape: CIVICRM_CHECKSUM_SHAPE,
    async api4<T extends CrmRow>(_entity: string, _action: string, params?: Api4Params) {
      if (params) sent.push(params);
      return rows.map((row) => ({ ...row })) as T[];
    },
    async batch(calls: Readonly<Record<string, Api4Call>>) {
      const results: Record<string, Api4CallResult> = {};
      for (const [name, [, , params]] of Object.entries(calls)) {
        if (params) sent.push(params);
        results[name] = { rows: rows.map((row) => ({ ...row })) };
      }
      return results;
    },
    api3: async () => [],
    createFile: async () => [],
  };
  const client = wrapForSiteGroupNames(inner, {
    activity: SITE_ACTIVITY_GROUP,
    contact: CONTACT_CUSTOM_GROUP,
  });
  return { inner, client, sent };
}

describe('SiteGroupNamesClient', () => {
  it('is not installed when the site uses the documented names', () => {
    const { inner } = siteAnswering([]);
    expect(
      wrapForSiteGroupNames(inner, { activity: ACTIVITY_CUSTOM_GROUP, contact: CONTACT_CUSTOM_GROUP }),
    ).toBe(inner);
  });

  it("spells fields the site's way going out and the code's way in every row of every read", async () => {
    const { client, sent } = siteAnswering([
      { id: 1, [`${SITE_ACTIVITY_GROUP}.Stage`]: '2', [`file_x.file_name`]: 'a.pdf' },
      { id: 2, [`${SITE_ACTIVITY_GROUP}.Stage`]: null, [`file_x.file_name`]: null },
    ]);
    const params: Api4Params = {
      select: ['id', `${ACTIVITY_CUSTOM_GROUP}.Stage`],
      where: [[`${ACTIVITY_CUSTOM_GROUP}.Stage`, 'IS NOT EMPTY']],
    };

    // The same columns again and again: each read answers with the code's names, not a stale one.
    for (let read = 0; read < 3; read += 1) {
      const viaCall = await client.api4('Activity', 'get', params);
      const viaBatch = await client.batch({ list: ['Activity', 'get', params] });
      for (const rows of [viaCall, 'rows' in viaBatch['list']! ? viaBatch['list'].rows : []]) {
        expect(rows).toEqual([
          { id: 1, [`${ACTIVITY_CUSTOM_GROUP}.Stage`]: '2', 'file_x.file_name': 'a.pdf' },
          { id: 2, [`${ACTIVITY_CUSTOM_GROUP}.Stage`]: null, 'file_x.file_name': null },
        ]);
      }
    }
    expect(sent[0]).toEqual({
      select: ['id', `${SITE_ACTIVITY_GROUP}.Stage`],
      where: [[`${SITE_ACTIVITY_GROUP}.Stage`, 'IS NOT EMPTY']],
    });
  });

  it('renames group names given as values, in conditions and in answers', async () => {
    const { client, sent } = siteAnswering([
      { id: 7, 'custom_group_id:name': SITE_ACTIVITY_GROUP, name: 'Stage' },
    ]);
    const rows = await client.api4('CustomField', 'get', {
      where: [['custom_group_id:name', 'IN', [ACTIVITY_CUSTOM_GROUP, CONTACT_CUSTOM_GROUP]]],
    });
    expect(sent[0]!.where).toEqual([
      ['custom_group_id:name', 'IN', [SITE_ACTIVITY_GROUP, CONTACT_CUSTOM_GROUP]],
    ]);
    expect(rows).toEqual([{ id: 7, 'custom_group_id:name': ACTIVITY_CUSTOM_GROUP, name: 'Stage' }]);
  });
});
