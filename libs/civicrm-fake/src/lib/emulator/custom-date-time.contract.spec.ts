import { api4Rows, type ContractTarget, itOnRealTargets, onEmulatedSite } from './contract-site';

/**
 * A custom Date field with a time format (CiviCRM's "date and time") keeps the time it was given,
 * and one without keeps the day only (docs/emulator.md). Found by the site-variety suite: the
 * emulator dropped the time. Real CiviCRMs as contract-site.ts names them; the flow deletes what it
 * creates.
 */

async function readBack(target: ContractTarget): Promise<unknown[]> {
  const name = `Dates_${Date.now().toString(36)}`;
  const [group] = await api4Rows(target, 'CustomGroup', 'create', {
    values: { name, title: name, extends: 'Organization' },
  });
  const fields = await api4Rows(target, 'CustomField', 'save', {
    records: [
      { name: 'Day', label: 'Day', time_format: 0 },
      { name: 'Moment', label: 'Moment', time_format: 2 },
    ].map((field) => ({
      ...field,
      custom_group_id: group?.['id'],
      data_type: 'Date',
      html_type: 'Select Date',
      date_format: 'yy-mm-dd',
    })),
  });
  try {
    const [org] = await api4Rows(target, 'Contact', 'create', {
      values: {
        contact_type: 'Organization',
        organization_name: name,
        [`${name}.Day`]: '2022-03-04 13:45:00',
        [`${name}.Moment`]: '2022-03-04 13:45:00',
      },
    });
    const [row] = await api4Rows(target, 'Contact', 'get', {
      select: [`${name}.Day`, `${name}.Moment`],
      where: [['id', '=', org?.['id']]],
    });
    await api4Rows(target, 'Contact', 'delete', { where: [['id', '=', org?.['id']]], useTrash: false });
    return [row?.[`${name}.Day`], row?.[`${name}.Moment`]];
  } finally {
    await api4Rows(target, 'CustomField', 'delete', {
      where: [['id', 'IN', fields.map((field) => field['id'])]],
    });
    await api4Rows(target, 'CustomGroup', 'delete', { where: [['id', '=', group?.['id']]] });
  }
}

const EXPECTED = ['2022-03-04', '2022-03-04 13:45:00'];

describe('custom date fields with and without a time', () => {
  it.each(['6.14', '5.81'] as const)('emulating %s', async (version) => {
    expect(await onEmulatedSite(version, 'UTC', readBack)).toEqual(EXPECTED);
  });

  itOnRealTargets('answers the same', async (target) => {
    expect(await readBack(target)).toEqual(EXPECTED);
  });
});
