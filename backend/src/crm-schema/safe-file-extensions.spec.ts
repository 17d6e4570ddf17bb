import { planSchema } from './plan';
import { desired, emptySnapshot, installedSnapshot } from './testing/crm-snapshots';

describe('safe file extensions', () => {
  it('adds every allowed upload extension CiviCRM lacks (WebP on a stock site) after the highest value and weight', () => {
    const plan = planSchema(desired, emptySnapshot());
    const creates = plan.changes.filter((change) => change.summary.includes('safe file extension'));
    expect(creates).toEqual([
      expect.objectContaining({
        action: 'create',
        entity: 'OptionValue',
        params: {
          values: {
            option_group_id: 90,
            name: 'webp',
            label: 'webp',
            value: '18',
            weight: 18,
            is_active: true,
          },
        },
      }),
    ]);
    expect(desired.safeFileExtensions).toEqual(
      expect.arrayContaining(['pdf', 'doc', 'docx', 'xls', 'xlsx', 'jpg', 'jpeg', 'png', 'gif', 'webp']),
    );
  });

  it('enables a disabled one, compares labels ignoring case, and is idempotent', () => {
    const snapshot = installedSnapshot();
    const webp = snapshot.safeFileExtensions.find((row) => row['label'] === 'webp');
    if (!webp) throw new Error('no webp row');
    webp['is_active'] = false;
    const png = snapshot.safeFileExtensions.find((row) => row['label'] === 'png');
    if (png) png['label'] = 'PNG';
    const plan = planSchema(desired, snapshot);
    expect(plan.changes).toEqual([
      expect.objectContaining({
        action: 'update',
        params: { where: [['id', '=', webp['id']]], values: { is_active: true } },
      }),
    ]);
    webp['is_active'] = true;
    expect(planSchema(desired, snapshot).changes).toEqual([]);
  });

  it('only notes a site without the option group', () => {
    const snapshot = installedSnapshot();
    delete snapshot.safeFileExtensionGroup;
    snapshot.safeFileExtensions = [];
    const plan = planSchema(desired, snapshot);
    expect(plan.changes).toEqual([]);
    expect(plan.notes).toContainEqual(expect.stringContaining("no option group 'safe_file_extension'"));
  });
});
