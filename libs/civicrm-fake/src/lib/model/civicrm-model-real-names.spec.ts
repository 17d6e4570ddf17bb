import { type CiviCrmModel } from './civicrm-model';
import { ORG_ID, PERSON, PERSON_ID } from '../spec-support/sample-site';
import { expectApi4Error, realSiteHelpers } from '../spec-support/model-specs';

/** Names, option weights, files and joins as a real CiviCRM has them. */

/** The behaviours measured on real CiviCRM 6.14 and 5.81.1 (issues 12 and 18). */
describe('CiviCrmModel imitating a real CiviCRM', () => {
  const clock = new Date('2026-11-21T12:00:00Z');
  const { make, checkIn, read } = realSiteHelpers(clock);

  describe('names', () => {
    it('munges a CustomGroup name on create (no rename), while the seeded site keeps its old names', () => {
      const model = make();
      const [group] = model.api4('CustomGroup', 'create', {
        values: {
          name: 'Check_in_data__organizing_',
          title: 'Check-in data (organizing)',
          extends: 'Activity',
        },
      });
      expect(group?.['name']).toBe('Check_in_data_organizing_');
      expect(group?.['table_name']).toBe(`civicrm_value_check_in_data_${String(group?.['id'])}`);
      expect(
        model.api4('CustomGroup', 'get', { where: [['name', '=', 'Check_in_data__organizing_']] }),
      ).toHaveLength(1);
      const [fromTitle] = model.api4('CustomGroup', 'create', {
        values: { title: 'Emu probe x  y-z!', extends: 'Activity' },
      });
      expect(fromTitle?.['name']).toBe('Emu_probe_x_y_z_');
      const [long] = model.api4('CustomGroup', 'create', {
        values: { name: 'a'.repeat(70), title: 't', extends: 'Activity' },
      });
      expect(long?.['name']).toBe('a'.repeat(63));
    });

    it('keeps a given CustomField or OptionGroup name, and munges one derived from the label or title', () => {
      const model = make();
      const [group] = model.api4('CustomGroup', 'create', {
        values: { name: 'G', title: 'G', extends: 'Activity' },
      });
      const [named] = model.api4('CustomField', 'create', {
        values: {
          custom_group_id: group?.['id'],
          name: 'Emu__field x-y',
          label: 'Emu field',
          data_type: 'Int',
        },
      });
      const [derived] = model.api4('CustomField', 'create', {
        values: {
          custom_group_id: group?.['id'],
          label: 'Emu  file / doc',
          data_type: 'File',
          html_type: 'File',
        },
      });
      expect(named).toMatchObject({
        name: 'Emu__field x-y',
        column_name: `emu_field_${String(named?.['id'])}`,
      });
      expect(derived).toMatchObject({
        name: 'Emu_file_doc',
        column_name: `emu_file_doc_${String(derived?.['id'])}`,
      });
      expect(
        model.api4('OptionGroup', 'create', { values: { name: 'Emu Probe Opts2', title: 't' } })[0],
      ).toMatchObject({
        name: 'Emu Probe Opts2',
      });
      expect(model.api4('OptionGroup', 'create', { values: { title: 'Emu Probe T3!' } })[0]).toMatchObject({
        name: 'Emu_Probe_T3_',
      });
    });
  });

  describe('option weights', () => {
    it('caps a new weight at the highest + 1 and inserts a taken one, as CRM_Utils_Weight does', () => {
      const model = make();
      const [group] = model.api4('OptionGroup', 'create', { values: { name: 'ranks', title: 'Ranks' } });
      const add = (label: string, weight?: number) =>
        model.api4('OptionValue', 'create', {
          values: {
            option_group_id: group?.['id'],
            label,
            value: label.toLowerCase(),
            ...(weight ? { weight } : {}),
          },
        })[0]?.['weight'];
      // Measured on 6.14: 10 → 2 in an empty group, 20 → 3, 1 → 1 (free), then no weight → 4.
      expect([add('A', 10), add('B', 20), add('C', 1), add('D')]).toEqual([2, 3, 1, 4]);
      expect(add('E', 2)).toBe(2);
      const weights = () =>
        Object.fromEntries(
          model
            .api4('OptionValue', 'get', {
              select: ['label', 'weight'],
              where: [['option_group_id', '=', group?.['id']]],
            })
            .map((row) => [row['label'], row['weight']]),
        );
      expect(weights()).toEqual({ C: 1, E: 2, A: 3, B: 4, D: 5 });
    });

    it('moves a weight on update, shifting the ones in between', () => {
      const model = make();
      const [group] = model.api4('OptionGroup', 'create', { values: { name: 'ranks', title: 'Ranks' } });
      for (const label of ['A', 'B', 'C']) {
        model.api4('OptionValue', 'create', { values: { option_group_id: group?.['id'], label } });
      }
      model.api4('OptionValue', 'update', { values: { weight: 1 }, where: [['label', '=', 'C']] });
      const rows = model.api4('OptionValue', 'get', {
        select: ['label'],
        where: [['option_group_id', '=', group?.['id']]],
        orderBy: { weight: 'ASC' },
      });
      expect(rows.map((row) => row['label'])).toEqual(['C', 'A', 'B']);
    });
  });

  describe('File.create', () => {
    const base64 = Buffer.from('%PDF-1.7 hello').toString('base64');
    const createFile = (model: CiviCrmModel, context = {}, fileName = 'market study (1).pdf') =>
      model.api4(
        'File',
        'create',
        { values: { file_name: fileName, mime_type: 'application/pdf', content: base64 } },
        context,
      )[0];

    it('6.14 stores content as sent (base64 text) under a munged, unique name', () => {
      const model = make({ extensionInstalled: false });
      const file = createFile(model, { contentEncoding: 'base64' });
      expect(file).toEqual({
        id: expect.any(Number),
        mime_type: 'application/pdf',
        uri: expect.stringMatching(/^market_study_1_[0-9a-f]{32}\.pdf$/),
        upload_date: '20261121120000',
        created_id: null,
        content: null,
        file_name: null,
        custom: null,
        check_permissions: null,
      });
      const stored = model.getFile(Number(file?.['id']));
      expect(stored?.content.toString()).toBe(base64);
      expect(stored?.file_name).toBe('market_study_1.pdf');
      expect(
        model.api4('File', 'get', {
          select: ['file_name', 'content'],
          where: [['id', '=', file?.['id']]],
        })[0],
      ).toEqual({ id: file?.['id'], file_name: 'market_study_1.pdf', content: base64 });
      expect(createFile(model, {}, 'run.exe')?.['uri']).toMatch(/^run_exe_[0-9a-f]{32}\.unknown$/);
      expectApi4Error(() => createFile(model, {}, '../x.pdf'), 500, /^Malformed name$/);
      expectApi4Error(
        () => model.api4('File', 'create', { values: { file_name: 'x.pdf' } }),
        500,
        /^Mandatory values missing from Api4 File::create: mime_type$/,
      );
    });

    it('5.81 has no content field: no name, no bytes', () => {
      const model = make({ civicrmVersion: '5.81', extensionInstalled: false });
      const file = createFile(model, { contentEncoding: 'base64' });
      expect(file).toEqual({
        id: expect.any(Number),
        mime_type: 'application/pdf',
        created_id: null,
        content: null,
        file_name: null,
        custom: null,
        check_permissions: null,
      });
      expect(model.getFile(Number(file?.['id']))).toMatchObject({ uri: null, file_name: null, size: 0 });
      expect(
        model.api4('File', 'get', {
          select: ['uri', 'content', 'url'],
          where: [['id', '=', file?.['id']]],
        })[0],
      ).toEqual({ id: file?.['id'], uri: null, url: null });
    });

    it.each(['6.14', '5.81'] as const)(
      'with the extension, %s decodes content the service marks base64 and says so',
      (civicrmVersion) => {
        const model = make({ civicrmVersion });
        const file = createFile(model, { contentEncoding: 'base64' });
        expect(file).toMatchObject({ file_name: 'market_study_1.pdf', checkin_content_decoded: true });
        expect(model.getFile(Number(file?.['id']))?.content.toString()).toBe('%PDF-1.7 hello');
        // No marker, no decoding: every other caller's File.create is unchanged.
        const plain = createFile(model);
        expect(plain).not.toHaveProperty('checkin_content_decoded');
        expect(model.getFile(Number(plain?.['id']))?.content.toString()).toBe(
          civicrmVersion === '6.14' ? base64 : '',
        );
        expectApi4Error(
          () =>
            model.api4(
              'File',
              'create',
              { values: { file_name: 'x.pdf', mime_type: 'application/pdf', content: 'not base64!' } },
              { contentEncoding: 'base64' },
            ),
          500,
        );
      },
    );
  });

  describe('replacing a file field’s value', () => {
    it.each([
      ['6.14', false],
      ['5.81', true],
    ] as const)(
      'on %s keeps the old file: %s (6.14 deletes it when nothing else holds it)',
      (civicrmVersion, kept) => {
        const model = make({ civicrmVersion });
        const field = 'Food_Co_op_Organizing.Certificate_of_Incorporation';
        const old = Number(
          model.api4('Contact', 'get', { select: [field], where: [['id', '=', ORG_ID]] })[0]?.[field],
        );
        const [replacement] = model.api4(
          'File',
          'create',
          { values: { file_name: 'new.pdf', mime_type: 'application/pdf', content: 'eA==' } },
          { contentEncoding: 'base64' },
        );
        model.api4('Contact', 'update', {
          values: { [field]: replacement?.['id'] },
          where: [['id', '=', ORG_ID]],
        });
        expect(model.getFile(old) !== undefined).toBe(kept);
        expect(model.getFile(Number(replacement?.['id']))).toBeDefined();
      },
    );
  });

  describe('File.get url', () => {
    it('is a site-relative signed address on 6.14 and null on 5.81', () => {
      const at = (civicrmVersion: '6.14' | '5.81') => {
        const model = make({ civicrmVersion, baseUrl: 'https://crm.example.org/site' });
        return model.api4('File', 'get', { select: ['url'], where: [['id', '=', 1]] })[0]?.['url'];
      };
      expect(at('6.14')).toMatch(/^\/site\/civicrm\/file\?reset=1&id=1&fcs=[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(at('5.81')).toBeNull();
    });
  });

  describe('joins and unknown fields', () => {
    const FILE = 'Check_in_data__organizing_.Business_plan';
    const withFile = (model: CiviCrmModel) => {
      const [file] = model.api4(
        'File',
        'create',
        { values: { file_name: 'plan.pdf', mime_type: 'application/pdf', content: 'eA==' } },
        { contentEncoding: 'base64' },
      );
      return { file, activity: checkIn(model, { [FILE]: file?.['id'] }) };
    };

    it('6.14 answers the implicit File join; 5.81 drops it from select and refuses it in where', () => {
      const modern = make();
      const { activity } = withFile(modern);
      expect(read(modern, activity?.['id'], [`${FILE}.file_name`, `${FILE}.uri`])).toEqual({
        id: activity?.['id'],
        [`${FILE}.file_name`]: 'plan.pdf',
        [`${FILE}.uri`]: expect.stringMatching(/^plan_[0-9a-f]{32}\.pdf$/),
      });
      const old = make({ civicrmVersion: '5.81' });
      const { activity: oldActivity } = withFile(old);
      expect(read(old, oldActivity?.['id'], [FILE, `${FILE}.file_name`, `${FILE}.url`])).toEqual({
        id: oldActivity?.['id'],
        [FILE]: expect.any(Number),
      });
      expectApi4Error(
        () => old.api4('Activity', 'get', { where: [[`${FILE}.file_name`, '=', 'x']] }),
        500,
        new RegExp(`^Invalid field '${FILE.replace('.', '\\.')}\\.file_name'$`),
      );
    });

    it.each(['6.14', '5.81'] as const)('%s answers an explicit File join', (civicrmVersion) => {
      const model = make({ civicrmVersion });
      const { file, activity } = withFile(model);
      const row = read(model, activity?.['id'], ['f.file_name', 'f.uri', 'f.url'], {
        join: [['File AS f', 'LEFT', [FILE, '=', 'f.id']]],
      });
      expect(row).toMatchObject({ 'f.file_name': 'plan.pdf', 'f.uri': expect.stringMatching(/^plan_/) });
      const url =
        civicrmVersion === '6.14'
          ? new RegExp(`^/civicrm/file\\?reset=1&id=${String(file?.['id'])}&fcs=`)
          : new RegExp(
              `^https://crm\\.example\\.org/civicrm/file\\?reset=1&id=${String(file?.['id'])}&eid=${String(activity?.['id'])}&fcs=[0-9a-f]{64}_\\d+_168$`,
            );
      expect(row?.['f.url']).toMatch(url);
      const fcs = new URL(String(row?.['f.url']), 'https://crm.example.org').searchParams;
      expect(model.verifyFileSignature(Number(file?.['id']), fcs.get('fcs') ?? '', fcs.get('eid'))).toBe(
        true,
      );
    });

    it.each(['6.14', '5.81'] as const)(
      '%s gives the source contact through the ActivityContact bridge, and drops source_contact_id.display_name',
      (civicrmVersion) => {
        const model = make({ civicrmVersion });
        const activity = checkIn(model, {});
        const row = read(
          model,
          activity?.['id'],
          ['source_contact_id', 'source_contact_id.display_name', 'src.display_name', 'nonsense'],
          {
            join: [
              [
                'Contact AS src',
                'LEFT',
                'ActivityContact',
                ['id', '=', 'src.activity_id'],
                ['src.record_type_id:name', '=', '"Activity Source"'],
              ],
            ],
          },
        );
        expect(row).toEqual({
          id: activity?.['id'],
          source_contact_id: PERSON_ID,
          'src.display_name': `${PERSON.first_name} ${PERSON.last_name}`,
        });
        expectApi4Error(
          () => model.api4('Activity', 'get', { where: [['source_contact_id.display_name', '=', 'x']] }),
          500,
          /^Invalid field 'source_contact_id\.display_name'$/,
        );
      },
    );
  });
});
