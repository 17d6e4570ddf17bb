import { api4Rows, type ContractTarget, itOnRealTargets, onEmulatedSite } from './contract-site';

/**
 * What APIv4 answers for text holding character references (docs/emulator.md): `&lt;` and `&gt;`
 * come back as `<` and `>`, every other reference as stored. Found by the site-variety suite (an
 * owner's "&lt;" written as text read back as "<"); the emulator must answer the same as real
 * CiviCRM 6.14 and 5.81 (the targets contract-site.ts names).
 */
const WRITTEN = 'We wrote "&lt;" and &gt; and &amp; and &#60; and &quot; <3';
const READ_BACK = 'We wrote "<" and > and &amp; and &#60; and &quot; <3';

async function readBack(target: ContractTarget): Promise<unknown> {
  const [created] = await api4Rows(target, 'Contact', 'create', {
    values: { contact_type: 'Organization', organization_name: WRITTEN },
  });
  const [row] = await api4Rows(target, 'Contact', 'get', {
    select: ['organization_name'],
    where: [['id', '=', created?.['id']]],
  });
  await api4Rows(target, 'Contact', 'delete', {
    where: [['id', '=', created?.['id']]],
    useTrash: false,
  });
  return row?.['organization_name'];
}

describe('text with character references, read back through APIv4', () => {
  it.each(['6.14', '5.81'] as const)(
    'emulating %s: "&lt;" and "&gt;" decoded, the rest as stored',
    async (version) => {
      expect(await onEmulatedSite(version, 'UTC', readBack)).toBe(READ_BACK);
    },
  );

  itOnRealTargets('answers the same', async (target) => {
    expect(await readBack(target)).toBe(READ_BACK);
  });
});
