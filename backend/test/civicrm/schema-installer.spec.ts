import { Logger } from '@nestjs/common';
import { loadAppConfig } from '../../src/app/config/app-config';
import { CiviCrmHttpClient } from '../../src/app/crm/civicrm-http.client';
import type { CrmRow } from '../../src/app/crm/crm-client';
import { desiredSchema, type DesiredSchema } from '../../src/crm-schema/desired-schema';
import { planSchema } from '../../src/crm-schema/plan';
import { exitCodeOf, type SchemaReport } from '../../src/crm-schema/report';
import { runSchema } from '../../src/crm-schema/run';
import { readSnapshot } from '../../src/crm-schema/snapshot';

/**
 * The schema installer against a real CiviCRM, given by CIVICRM_URL and CIVICRM_API_KEY (an
 * administrator's key): dry run, apply, a second apply that changes nothing, then a site made
 * wrong on purpose (an option weight, a disabled field, option and relationship type) and fixed.
 * The damage is lossless (weights and flags only), so the test can share a site with other
 * suites. On a fresh site the first dry run must list every record the service needs.
 */
const url = process.env['CIVICRM_URL'];
const apiKey = process.env['CIVICRM_API_KEY'];

if (!url || !apiKey) {
  describe('schema installer on a real CiviCRM', () => {
    it.skip('needs CIVICRM_URL and CIVICRM_API_KEY (an administrator key of a test CiviCRM)', () =>
      undefined);
  });
} else {
  describe('schema installer on a real CiviCRM', () => {
    const config = loadAppConfig({
      CRM_BASE_URL: url,
      CRM_API_KEY: apiKey,
      CRM_ACTIVITY_CUSTOM_GROUP: process.env['CRM_ACTIVITY_CUSTOM_GROUP'],
      CRM_CONTACT_CUSTOM_GROUP: process.env['CRM_CONTACT_CUSTOM_GROUP'],
      CRM_TIMEOUT_MS: '60000',
    });
    if (!config.crm) throw new Error('unreachable: the CRM settings are set above');
    const crm = new CiviCrmHttpClient(config.crm);
    const desired: DesiredSchema = desiredSchema(config.crm.customGroups);
    const run = (mode: 'dry-run' | 'apply'): Promise<SchemaReport> =>
      runSchema(crm, desired, { mode, crmLabel: url });

    jest.setTimeout(180_000);
    beforeAll(() => Logger.overrideLogger(['error']));
    afterAll(() => crm.onApplicationShutdown());

    async function groupRow(key: 'activity' | 'contact', report: SchemaReport): Promise<CrmRow> {
      const name = report.groups.find((group) => group.key === key)?.foundName;
      const [row] = await crm.api4('CustomGroup', 'get', {
        select: ['id', 'name'],
        where: [['name', '=', name]],
      });
      if (!row) throw new Error(`no ${key} group`);
      return row;
    }

    async function stageOptions(groupId: unknown, fieldName = 'Stage'): Promise<CrmRow[]> {
      const [field] = await crm.api4('CustomField', 'get', {
        select: ['option_group_id'],
        where: [
          ['custom_group_id', '=', groupId],
          ['name', '=', fieldName],
        ],
      });
      return crm.api4('OptionValue', 'get', {
        select: ['id', 'value', 'label', 'weight', 'is_active'],
        where: [['option_group_id', '=', field?.['option_group_id']]],
        orderBy: { weight: 'ASC', id: 'ASC' },
      });
    }

    it('plans every record on a fresh site, applies it, and finds nothing left to do', async () => {
      const snapshotBefore = await readSnapshot(crm, desired);
      const first = await run('dry-run');
      const fresh = first.groups.every((group) => group.foundName === null);
      if (fresh) {
        const fromScratch = planSchema(desired, {
          activityTypes: [],
          groups: [],
          fields: [],
          optionGroups: [],
          optionValues: [],
          relationshipTypes: [],
          // A fresh site's own: the installer adds what uploads need to it (WebP).
          safeFileExtensionGroup: snapshotBefore.safeFileExtensionGroup,
          safeFileExtensions: snapshotBefore.safeFileExtensions,
        });
        expect(first.changes.map((change) => change.summary)).toEqual(
          fromScratch.changes.map((change) => change.summary),
        );
        expect(exitCodeOf(first.outcome)).toBe(2);
      }

      const applied = await run('apply');
      expect(applied.error).toBeUndefined();
      expect(applied.problems).toEqual([]);
      expect(applied.remaining).toEqual([]);
      expect(['applied', 'up-to-date']).toContain(applied.outcome);
      expect(applied.groups.every((group) => group.foundName !== null)).toBe(true);

      const installed = await readSnapshot(crm, desired);
      const safe = installed.safeFileExtensions
        .filter((row) => row['is_active'] !== false)
        .map((row) => String(row['label']).toLowerCase());
      expect(safe).toEqual(expect.arrayContaining([...desired.safeFileExtensions]));

      const again = await run('apply');
      expect(again.outcome).toBe('up-to-date');
      expect(again.changes).toEqual([]);
      const dry = await run('dry-run');
      expect(dry.outcome).toBe('up-to-date');
      expect(exitCodeOf(dry.outcome)).toBe(0);
      // The settings name the groups as CiviCRM stores them (munged when it had to).
      for (const group of dry.groups) {
        expect(dry.settings).toContain(`${group.setting}=${String(group.foundName)}`);
        expect(group.foundName).toMatch(/^[A-Za-z0-9_]+$/);
      }
    });

    it('stores every field with the data type, widget and options the service needs', async () => {
      const report = await run('dry-run');
      for (const group of desired.groups) {
        const row = await groupRow(group.key, report);
        const fields = await crm.api4('CustomField', 'get', {
          select: [
            'name',
            'data_type',
            'html_type',
            'serialize',
            'text_length',
            'is_active',
            'option_group_id',
          ],
          where: [['custom_group_id', '=', row['id']]],
        });
        const byName = new Map(fields.map((field) => [String(field['name']), field]));
        for (const field of group.fields) {
          const stored = byName.get(field.name);
          expect({ name: field.name, ...stored }).toMatchObject({
            name: field.name,
            data_type: field.data_type,
            html_type: field.html_type,
            serialize: field.serialize,
            is_active: true,
            ...(field.text_length ? { text_length: field.text_length } : {}),
          });
          if (field.options) {
            const options = await crm.api4('OptionValue', 'get', {
              select: ['value', 'label'],
              where: [
                ['option_group_id', '=', stored?.['option_group_id']],
                ['is_active', '=', true],
              ],
              orderBy: { weight: 'ASC' },
            });
            expect(options.map((option) => option['value'])).toEqual(
              expect.arrayContaining(field.options.map((option) => option.value)),
            );
          }
        }
      }
      const stages = await stageOptions((await groupRow('activity', report))['id']);
      expect(stages.map((stage) => stage['label'])).toEqual([
        'Inquiry',
        'Organizing',
        'Feasibility',
        'Business planning',
        'Capitalization',
        'Open',
      ]);
      expect(stages.map((stage) => stage['weight'])).toEqual([1, 2, 3, 4, 5, 6]);
    });

    it('fixes a site where an option weight, a field, an option and the relationship type went wrong', async () => {
      const before = await run('dry-run');
      const activityGroup = await groupRow('activity', before);
      const stages = await stageOptions(activityGroup['id']);
      const open = stages.find((stage) => stage['value'] === 'open');
      // One write: CiviCRM moves 'Open' first and shifts the others down, as an administrator's drag would.
      await crm.api4('OptionValue', 'update', { where: [['id', '=', open?.['id']]], values: { weight: 1 } });
      await crm.api4('CustomField', 'update', {
        where: [
          ['custom_group_id', '=', activityGroup['id']],
          ['name', '=', 'Submission_ID'],
        ],
        values: { is_active: false },
      });
      await crm.api4('RelationshipType', 'update', {
        where: [['name_a_b', '=', 'Primary Contact']],
        values: { is_active: false },
      });
      const [complete] = (await stageOptions(activityGroup['id'], 'Market_study_status')).filter(
        (option) => option['value'] === 'complete',
      );
      await crm.api4('OptionValue', 'update', {
        where: [['id', '=', complete?.['id']]],
        values: { is_active: false },
      });
      expect((await stageOptions(activityGroup['id']))[0]?.['value']).toBe('open');

      const broken = await run('dry-run');
      expect(broken.outcome).toBe('changes-needed');
      expect(broken.changes.map((change) => `${change.action} ${change.entity}`).sort()).toEqual([
        'save OptionValue',
        'save OptionValue',
        'update CustomField',
        'update RelationshipType',
      ]);
      expect(broken.changes.flatMap((change) => change.details)).toEqual(
        expect.arrayContaining(["'Open': weight 1 → 6", "'Complete': enable", 'is_active: false → true']),
      );

      const fixed = await run('apply');
      expect(fixed.outcome).toBe('applied');
      expect(fixed.changes).toHaveLength(4);
      expect(
        (await stageOptions(activityGroup['id'])).map((stage) => [stage['value'], stage['weight']]),
      ).toEqual(stages.map((stage, index) => [stage['value'], index + 1]));
      const after = planSchema(desired, await readSnapshot(crm, desired));
      expect(after.changes).toEqual([]);
    });
  });
}
