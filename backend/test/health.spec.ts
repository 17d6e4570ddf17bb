import {
  ACTIVITY_CUSTOM_GROUP,
  ACTIVITY_STAGE_FIELD,
  CONTACT_CUSTOM_GROUP,
  FORM_CONTACT_RELATIONSHIP,
} from '../src/app/crm/crm-names';
import { ACTIVITY_FIELDS } from '../src/app/fields/field-config';
import type { EmulatorFault } from '@checkin/civicrm-fake/emulator';
import {
  createDemoModel,
  DEMO_ORG_ID,
  DEMO_ORG_NAME,
  DEMO_PERSON,
  DEMO_PERSON_ID,
  DEMO_STAGES,
  NEAR_MATCH_RELATIONSHIP,
  REVERSED_ORG_ID,
  REVERSED_PERSON_ID,
  STAGE_OPTION_GROUP,
} from '../src/app/crm/in-memory/demo-data';
import { SERVICE_VERSION } from '../src/app/release';
import { startTestApp, TEST_ADMIN_KEY, TEST_API_KEY, type TestApp } from './support/test-app';

const UP = { status: 'up' };
/** The release that answers (docs/releasing.md). */
const SERVICE = { status: 'up', version: SERVICE_VERSION };
const STAGES = DEMO_STAGES.map(({ rank, value, label }) => ({ rank, value, label }));

describe('health routes (live mode against the CRM emulator)', () => {
  let test: TestApp;
  const admin = { 'X-Admin-Key': TEST_ADMIN_KEY };

  beforeAll(async () => {
    test = await startTestApp({ emulator: { model: createDemoModel() } });
  });

  afterAll(() => test.close());

  beforeEach(() => test.emulator.reset());

  describe('GET /api/health/live', () => {
    it('answers the Terminus body without calling the CRM', async () => {
      const response = await test.get('/api/health/live');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok', info: {}, error: {}, details: {} });
      expect(test.emulator.calls).toEqual([]);
    });

    it('stays up while the CRM is down', async () => {
      test.emulator.injectFault({ kind: 'down' });
      const response = await test.get('/api/health/live');
      expect(response.status).toBe(200);
    });
  });

  describe('GET /api/health/ready', () => {
    it('is up when one authenticated read reaches the CRM', async () => {
      const response = await test.get('/api/health/ready');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache, no-store, must-revalidate');
      expect(await response.json()).toEqual({
        status: 'ok',
        info: { crm: UP, deployment: UP },
        error: {},
        details: { crm: UP, deployment: UP },
      });
      expect(test.emulator.calls).toHaveLength(1);
      const [call] = test.emulator.calls;
      expect(call).toMatchObject({ entity: 'Contact', action: 'get', method: 'GET', status: 200 });
      expect(call?.params).toEqual({ select: ['id'], limit: 1 });
      expect(call?.headers['x-civi-auth']).toBe(`Bearer ${TEST_API_KEY}`);
    });

    it.each<[EmulatorFault['kind'], string, string]>([
      ['down', 'unreachable', 'The CRM could not be reached.'],
      [
        'http401',
        'unauthorized',
        "The CRM refused the service's credentials. Fix: CiviCRM knows no user with the key in CRM_API_KEY (HTTP 401 'Invalid credential'): set CRM_API_KEY to the API user's key (CiviCRM keeps at most 32 characters of a key).",
      ],
      ['http500', 'failed', 'The CRM answered with an error.'],
      ['malformed', 'malformed', 'The CRM answered with something other than its API envelope.'],
    ])('is down with 503 when the CRM fails (%s)', async (kind, failure, message) => {
      test.emulator.injectFault({ kind });
      const response = await test.get('/api/health/ready');
      expect(response.status).toBe(503);
      const down = { status: 'down', failure, message };
      expect(await response.json()).toEqual({
        status: 'error',
        info: { deployment: UP },
        error: { crm: down },
        details: { crm: down, deployment: UP },
      });
    });

    it('is down when the CRM does not answer within CRM_TIMEOUT_MS', async () => {
      test.emulator.injectFault({ kind: 'slow', delayMs: 5_000 });
      const started = Date.now();
      const response = await test.get('/api/health/ready');
      expect(response.status).toBe(503);
      const down = { status: 'down', failure: 'timeout', message: 'The CRM did not answer in time.' };
      expect(await response.json()).toEqual({
        status: 'error',
        info: { deployment: UP },
        error: { crm: down },
        details: { crm: down, deployment: UP },
      });
      expect(Date.now() - started).toBeLessThan(3_000);
    });

    it('logs when readiness is lost and when it returns, once each, without the CRM address', async () => {
      const healthLines = () => test.logs.filter((line) => line.includes('"context":"Health"'));
      await test.get('/api/health/ready');
      const before = healthLines().length;
      test.emulator.injectFault({ kind: 'http500' });
      await test.get('/api/health/ready');
      await test.get('/api/health/ready');
      test.emulator.clearFaults();
      await test.get('/api/health/ready');
      await test.get('/api/health/ready');
      const lines = healthLines().slice(before);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toContain('Not ready: The CRM answered with an error.');
      expect(lines[1]).toContain('The CRM answers again.');
      expect(lines.join('')).not.toContain(test.emulator.baseUrl);
    });

    it('is not counted against the read limit, so probes never lock a load balancer out', async () => {
      const probe = await startTestApp({
        emulator: { model: createDemoModel() },
        env: { RATE_LIMIT_READS_PER_MINUTE: '2' },
      });
      try {
        const statuses: number[] = [];
        for (let attempt = 0; attempt < 5; attempt++) {
          statuses.push(
            (await probe.get('/api/health/ready')).status,
            (await probe.get('/api/health/live')).status,
          );
        }
        expect(statuses.every((status) => status === 200)).toBe(true);
      } finally {
        await probe.close();
      }
    });

    it('shares one CRM probe between concurrent callers and limits a flood per address', async () => {
      const probe = await startTestApp({
        emulator: { model: createDemoModel() },
        env: { READY_PROBE_CACHE_MS: '5000', RATE_LIMIT_READY_PROBES_PER_MINUTE: '150' },
      });
      try {
        const first = await Promise.all(
          Array.from({ length: 100 }, async () => (await probe.get('/api/health/ready')).status),
        );
        expect(first.every((status) => status === 200)).toBe(true);
        expect(probe.emulator.calls).toHaveLength(1);

        const flood = await Promise.all(
          Array.from({ length: 120 }, async () => probe.get('/api/health/ready')),
        );
        const limited = flood.filter((response) => response.status === 429);
        expect(limited).toHaveLength(100 + 120 - 150);
        expect(Number(limited[0]?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(await limited[0]?.json()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
        expect(probe.emulator.calls).toHaveLength(1);
      } finally {
        await probe.close();
      }
    });
  });

  describe('GET /api/health (diagnostics)', () => {
    const stageOptions = (optionGroupId: number, customFieldId: number) => ({
      status: 'up',
      field: ACTIVITY_STAGE_FIELD,
      customFieldId,
      optionGroupId,
      optionGroup: STAGE_OPTION_GROUP,
      stages: STAGES,
      problems: [],
    });

    function demoIds() {
      const [stageField] = test.emulator.model.api4('CustomField', 'get', {
        select: ['id', 'option_group_id'],
        where: [
          ['custom_group_id:name', '=', 'Check_in_data__organizing_'],
          ['name', '=', 'Stage'],
        ],
      });
      const types = test.emulator.model.api4('RelationshipType', 'get', {
        select: ['id', 'name_a_b'],
        where: [['name_a_b', 'IN', [FORM_CONTACT_RELATIONSHIP, NEAR_MATCH_RELATIONSHIP, 'Employee of']]],
      });
      const typeId = (name: string) => types.find((type) => type['name_a_b'] === name)?.['id'] as number;
      return {
        stageFieldId: stageField?.['id'] as number,
        stageGroupId: stageField?.['option_group_id'] as number,
        primaryContactTypeId: typeId(FORM_CONTACT_RELATIONSHIP),
        nearMatchTypeId: typeId(NEAR_MATCH_RELATIONSHIP),
        employeeTypeId: typeId('Employee of'),
      };
    }

    const primaryContactType = (id: number) => ({
      id,
      name_a_b: FORM_CONTACT_RELATIONSHIP,
      label_a_b: FORM_CONTACT_RELATIONSHIP,
      name_b_a: 'Has Primary Contact',
      label_b_a: 'Has Primary Contact',
      contactTypeA: 'Individual',
      contactTypeB: 'Organization',
      is_active: true,
    });

    it('resolves the stage options through the Stage field metadata and finds the Primary Contact type', async () => {
      const ids = demoIds();
      const response = await test.get('/api/health', admin);
      expect(response.status).toBe(200);
      const details = {
        crm: UP,
        deployment: expect.objectContaining({ status: 'up', problems: [] }),
        customGroups: expect.objectContaining({ status: 'up', problems: [] }),
        stageOptions: stageOptions(ids.stageGroupId, ids.stageFieldId),
        primaryContactType: {
          status: 'up',
          name: FORM_CONTACT_RELATIONSHIP,
          found: primaryContactType(ids.primaryContactTypeId),
          // Listed although the type is found: two similar types are what misleads staff.
          nearMatches: [
            expect.objectContaining({ id: ids.nearMatchTypeId, name_a_b: NEAR_MATCH_RELATIONSHIP }),
          ],
          problems: [],
        },
        service: SERVICE,
      };
      expect(await response.json()).toEqual({ status: 'ok', info: details, error: {}, details });
      const calls = test.emulator.calls.map((call) => `${call.entity}.${call.action}`).sort();
      expect(calls).toEqual([
        'Contact.get',
        'CustomField.get',
        'CustomField.get',
        'CustomGroup.get',
        'CustomGroup.get',
        'OptionValue.get',
        'RelationshipType.get',
      ]);
      const optionCall = test.emulator.callsTo('OptionValue', 'get')[0];
      expect(optionCall?.params['where']).toEqual([
        ['option_group_id', '=', ids.stageGroupId],
        ['is_active', '=', true],
      ]);
    });

    it('lists every relationship of a contact, both directions, with types and sides through joins', async () => {
      const ids = demoIds();
      const response = await test.get(`/api/health?contactId=${DEMO_PERSON_ID}`, admin);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { details: Record<string, unknown> };
      const person = {
        id: DEMO_PERSON_ID,
        contactType: 'Individual',
        displayName: `${DEMO_PERSON.first_name} ${DEMO_PERSON.last_name}`,
      };
      const organization = { id: DEMO_ORG_ID, contactType: 'Organization', displayName: DEMO_ORG_NAME };
      expect(body.details['contactRelationships']).toEqual({
        status: 'up',
        contactId: DEMO_PERSON_ID,
        contact: person,
        relationships: [
          {
            id: expect.any(Number),
            type: FORM_CONTACT_RELATIONSHIP,
            isActive: true,
            contactA: person,
            contactB: organization,
            expectedContactTypeA: 'Individual',
            expectedContactTypeB: 'Organization',
            problems: [],
          },
          {
            id: expect.any(Number),
            type: 'Employee of',
            isActive: true,
            contactA: person,
            contactB: organization,
            expectedContactTypeA: 'Individual',
            expectedContactTypeB: 'Organization',
            problems: [],
          },
        ],
        truncated: false,
        primaryContactOf: [DEMO_ORG_ID],
        problems: [],
      });
      expect(ids.employeeTypeId).toEqual(expect.any(Number));
      const [relationshipCall] = test.emulator.callsTo('Relationship', 'get');
      expect(relationshipCall?.params['where']).toEqual([
        [
          'OR',
          [
            ['contact_id_a', '=', DEMO_PERSON_ID],
            ['contact_id_b', '=', DEMO_PERSON_ID],
          ],
        ],
      ]);
    });

    it('flags a Primary Contact relationship entered backwards and answers 503', async () => {
      const response = await test.get(`/api/health?contactId=${REVERSED_PERSON_ID}`, admin);
      expect(response.status).toBe(503);
      const body = (await response.json()) as {
        status: string;
        info: Record<string, unknown>;
        error: Record<
          string,
          { relationships: Array<{ id: number; problems: string[] }>; problems: string[] }
        >;
      };
      expect(body.status).toBe('error');
      expect(Object.keys(body.info).sort()).toEqual([
        'crm',
        'customGroups',
        'deployment',
        'primaryContactType',
        'service',
        'stageOptions',
      ]);
      const diagnostic = body.error['contactRelationships'];
      expect(diagnostic).toMatchObject({
        status: 'down',
        contactId: REVERSED_PERSON_ID,
        contact: { id: REVERSED_PERSON_ID, contactType: 'Individual' },
        primaryContactOf: [],
      });
      const [relationship] = diagnostic?.relationships ?? [];
      expect(relationship).toMatchObject({
        type: FORM_CONTACT_RELATIONSHIP,
        contactA: { id: REVERSED_ORG_ID, contactType: 'Organization' },
        contactB: { id: REVERSED_PERSON_ID, contactType: 'Individual' },
      });
      expect(relationship?.problems).toEqual([
        `Entered backwards: 'Primary Contact' puts an Individual on side A and an Organization on side B, ` +
          `but contact ${REVERSED_ORG_ID} (side A) is an Organization and contact ${REVERSED_PERSON_ID} (side B) ` +
          'is an Individual. Swap the two contacts.',
      ]);
      expect(diagnostic?.problems).toEqual([
        `Relationship ${relationship?.id}: ${relationship?.problems[0]}`,
      ]);
    });

    it('reports an unknown contact as down', async () => {
      const response = await test.get('/api/health?contactId=999999', admin);
      expect(response.status).toBe(503);
      const body = (await response.json()) as { error: Record<string, unknown> };
      expect(body.error['contactRelationships']).toEqual({
        status: 'down',
        contactId: 999999,
        contact: null,
        relationships: [],
        truncated: false,
        primaryContactOf: [],
        problems: ['No contact has the id 999999 (or it is deleted).'],
      });
    });

    it('lists near matches when the Primary Contact type was renamed', async () => {
      const ids = demoIds();
      test.emulator.model.api4('RelationshipType', 'update', {
        values: { name_a_b: 'Primary contact (co-op)', label_a_b: 'Primary contact (co-op)' },
        where: [['id', '=', ids.primaryContactTypeId]],
      });
      const response = await test.get('/api/health', admin);
      expect(response.status).toBe(503);
      const body = (await response.json()) as { error: Record<string, unknown> };
      expect(body.error['primaryContactType']).toEqual({
        status: 'down',
        name: FORM_CONTACT_RELATIONSHIP,
        found: null,
        nearMatches: [
          {
            ...primaryContactType(ids.primaryContactTypeId),
            name_a_b: 'Primary contact (co-op)',
            label_a_b: 'Primary contact (co-op)',
          },
          {
            id: ids.nearMatchTypeId,
            name_a_b: NEAR_MATCH_RELATIONSHIP,
            label_a_b: NEAR_MATCH_RELATIONSHIP,
            name_b_a: 'Primary Contact is',
            label_b_a: 'Primary Contact is',
            contactTypeA: 'Individual',
            contactTypeB: 'Organization',
            is_active: true,
          },
        ],
        problems: [`No relationship type is named '${FORM_CONTACT_RELATIONSHIP}'.`],
      });
    });

    it('reports a disabled Primary Contact type with its near matches', async () => {
      const ids = demoIds();
      test.emulator.model.api4('RelationshipType', 'update', {
        values: { is_active: false },
        where: [['id', '=', ids.primaryContactTypeId]],
      });
      const response = await test.get('/api/health', admin);
      const body = (await response.json()) as { error: Record<string, Record<string, unknown>> };
      expect(response.status).toBe(503);
      expect(body.error['primaryContactType']?.['problems']).toEqual([
        `The relationship type '${FORM_CONTACT_RELATIONSHIP}' is disabled.`,
      ]);
      expect(body.error['primaryContactType']?.['nearMatches']).toEqual([
        expect.objectContaining({ name_a_b: NEAR_MATCH_RELATIONSHIP }),
      ]);
    });

    it('reports a stage option group that does not hold six active stages', async () => {
      const ids = demoIds();
      test.emulator.model.api4('OptionValue', 'update', {
        values: { is_active: false },
        where: [
          ['option_group_id', '=', ids.stageGroupId],
          ['value', '=', 'open'],
        ],
      });
      const response = await test.get('/api/health', admin);
      expect(response.status).toBe(503);
      const body = (await response.json()) as { error: Record<string, unknown> };
      expect(body.error['stageOptions']).toEqual({
        ...stageOptions(ids.stageGroupId, ids.stageFieldId),
        status: 'down',
        stages: STAGES.slice(0, 5),
        problems: ['The stage option group has 5 active options; 6 are expected (ranks 0 to 5, by weight).'],
      });
    });

    it('reports a Stage field without an option group', async () => {
      const ids = demoIds();
      test.emulator.model.api4('CustomField', 'update', {
        values: { option_group_id: null },
        where: [['id', '=', ids.stageFieldId]],
      });
      const response = await test.get('/api/health', admin);
      const body = (await response.json()) as { error: Record<string, unknown> };
      expect(body.error['stageOptions']).toEqual({
        status: 'down',
        field: ACTIVITY_STAGE_FIELD,
        customFieldId: ids.stageFieldId,
        optionGroupId: null,
        optionGroup: null,
        stages: [],
        problems: [`The custom field ${ACTIVITY_STAGE_FIELD} has no option group.`],
      });
      expect(test.emulator.callsTo('OptionValue')).toEqual([]);
    });

    it('says which probes could not run when the CRM is down', async () => {
      test.emulator.injectFault({ kind: 'http500' });
      const response = await test.get(`/api/health?contactId=${DEMO_PERSON_ID}`, admin);
      expect(response.status).toBe(503);
      const down = { status: 'down', failure: 'failed', message: 'The CRM answered with an error.' };
      const error = {
        crm: down,
        customGroups: down,
        stageOptions: down,
        primaryContactType: down,
        contactRelationships: down,
      };
      // The deployment self-check answers from its report at start; an outage is the crm check's.
      expect(await response.json()).toEqual({
        status: 'error',
        info: { deployment: expect.objectContaining({ status: 'up' }), service: SERVICE },
        error,
        details: { ...error, deployment: expect.objectContaining({ status: 'up' }), service: SERVICE },
      });
    });

    describe('custom groups and fields', () => {
      const MUNGED = 'Check_in_data_organizing_';
      type GroupsBody = {
        status: string;
        groups: Array<{
          setting: string;
          name: string;
          found: { id: number; name: string } | null;
          nearMatches: Array<{ name: string; reason: string; configuredFields: number; setting: string }>;
          fields: Array<{ name: string; status: string; nearMatches?: string[]; dataType?: string }>;
        }>;
        problems: string[];
      };
      const groupsOf = async (app: TestApp): Promise<{ status: number; body: GroupsBody }> => {
        const response = await app.get('/api/health', admin);
        const body = (await response.json()) as { details: Record<string, GroupsBody> };
        const groups = body.details['customGroups'];
        if (!groups) throw new Error('no customGroups diagnostic');
        return { status: response.status, body: groups };
      };
      const groupId = (model: ReturnType<typeof createDemoModel>, name: string) =>
        model.api4('CustomGroup', 'get', { select: ['id'], where: [['name', '=', name]] })[0]?.['id'];
      const renameActivityGroup = (model: ReturnType<typeof createDemoModel>) =>
        model.api4('CustomGroup', 'update', {
          values: { name: MUNGED },
          where: [['id', '=', groupId(model, ACTIVITY_CUSTOM_GROUP)]],
        });
      // The configured fields plus Stage, Submission_ID and Cleared_fields.
      const activityFieldCount = () => ACTIVITY_FIELDS.length + 3;

      it('finds both groups and every configured field', async () => {
        const { status, body } = await groupsOf(test);
        expect(status).toBe(200);
        expect(body.status).toBe('up');
        expect(body.problems).toEqual([]);
        const [activity, contact] = body.groups;
        expect(activity).toMatchObject({
          setting: 'CRM_ACTIVITY_CUSTOM_GROUP',
          name: ACTIVITY_CUSTOM_GROUP,
          found: { name: ACTIVITY_CUSTOM_GROUP, extends: 'Activity', is_active: true },
          nearMatches: [],
        });
        expect(activity?.fields).toHaveLength(activityFieldCount());
        expect(activity?.fields.map((field) => field.name)).toEqual(
          expect.arrayContaining(['Stage', 'Submission_ID', 'Y1_Q4_Margin']),
        );
        expect(contact?.fields.map((field) => field.name)).toEqual(
          expect.arrayContaining([
            'Date_Incorporated',
            'Certificate_of_Incorporation',
            'Equity_share',
            'Stage',
          ]),
        );
        expect(
          [...(activity?.fields ?? []), ...(contact?.fields ?? [])].every(
            (field) => field.status === 'found',
          ),
        ).toBe(true);
      });

      it('names the munged group as a near match, with the setting that selects it', async () => {
        renameActivityGroup(test.emulator.model);
        try {
          const { status, body } = await groupsOf(test);
          expect(status).toBe(503);
          expect(body.status).toBe('down');
          const [activity] = body.groups;
          expect(activity?.found).toBeNull();
          expect(activity?.fields).toEqual([]);
          expect(activity?.nearMatches).toEqual([
            expect.objectContaining({
              name: MUNGED,
              reason: 'its name differs only in punctuation or letter case',
              configuredFields: activityFieldCount(),
              setting: `CRM_ACTIVITY_CUSTOM_GROUP=${MUNGED}`,
            }),
          ]);
          expect(body.problems).toEqual([
            expect.stringContaining(
              `No custom group is named '${ACTIVITY_CUSTOM_GROUP}' (CRM_ACTIVITY_CUSTOM_GROUP). If it is this one, ` +
                `point the setting at it: '${MUNGED}'`,
            ),
          ]);
          expect(body.problems[0]).toContain(`set CRM_ACTIVITY_CUSTOM_GROUP=${MUNGED}`);
        } finally {
          test.emulator.model.api4('CustomGroup', 'update', {
            values: { name: ACTIVITY_CUSTOM_GROUP },
            where: [['name', '=', MUNGED]],
          });
        }
      });

      it('finds the group under the name the setting gives', async () => {
        const model = createDemoModel();
        renameActivityGroup(model);
        const app = await startTestApp({ emulator: { model }, env: { CRM_ACTIVITY_CUSTOM_GROUP: MUNGED } });
        try {
          const { body } = await groupsOf(app);
          expect(body.problems).toEqual([]);
          expect(body.groups[0]).toMatchObject({ name: MUNGED, found: { name: MUNGED }, nearMatches: [] });
        } finally {
          await app.close();
        }
      });

      it('finds a group titled as the installer titles it under another name', async () => {
        const model = createDemoModel();
        model.api4('CustomGroup', 'update', {
          values: { name: 'Coop_2019', title: 'Food Co-op Organizing' },
          where: [['id', '=', groupId(model, CONTACT_CUSTOM_GROUP)]],
        });
        const app = await startTestApp({ emulator: { model } });
        try {
          const { body } = await groupsOf(app);
          expect(body.groups[1]?.nearMatches).toEqual([
            expect.objectContaining({
              name: 'Coop_2019',
              reason: "its title is 'Food Co-op Organizing'",
              setting: 'CRM_CONTACT_CUSTOM_GROUP=Coop_2019',
            }),
          ]);
        } finally {
          await app.close();
        }
      });

      it('reports a missing field with near matches, a disabled one and one of another type', async () => {
        const fieldWhere = (name: string) => [
          ['custom_group_id:name', '=', ACTIVITY_CUSTOM_GROUP],
          ['name', '=', name],
        ];
        const model = createDemoModel();
        model.api4('CustomField', 'update', {
          values: { name: 'equity_goal' },
          where: fieldWhere('Equity_goal'),
        });
        model.api4('CustomField', 'update', {
          values: { is_active: false },
          where: fieldWhere('Submission_ID'),
        });
        model.api4('CustomField', 'update', {
          values: { data_type: 'Int' },
          where: fieldWhere('Y1_Q1_Sales'),
        });
        const app = await startTestApp({ emulator: { model } });
        try {
          const { status, body } = await groupsOf(app);
          expect(status).toBe(503);
          const fields = body.groups[0]?.fields ?? [];
          expect(fields.find((field) => field.name === 'Equity_goal')).toEqual({
            name: 'Equity_goal',
            status: 'missing',
            nearMatches: [`${ACTIVITY_CUSTOM_GROUP}.equity_goal (label 'Member equity goal')`],
          });
          expect(fields.find((field) => field.name === 'Submission_ID')).toEqual({
            name: 'Submission_ID',
            status: 'disabled',
          });
          expect(fields.find((field) => field.name === 'Y1_Q1_Sales')).toEqual({
            name: 'Y1_Q1_Sales',
            status: 'wrong type',
            dataType: 'Int',
            expectedDataType: 'Money',
          });
          expect(body.problems).toEqual([
            `The custom field '${ACTIVITY_CUSTOM_GROUP}.Submission_ID' is disabled.`,
            `The custom field '${ACTIVITY_CUSTOM_GROUP}.Equity_goal' is missing. Near matches: ` +
              `${ACTIVITY_CUSTOM_GROUP}.equity_goal (label 'Member equity goal'). Create it: npm run crm:schema -- --apply.`,
            `The custom field '${ACTIVITY_CUSTOM_GROUP}.Y1_Q1_Sales' holds Int; the service needs Money.`,
          ]);
        } finally {
          await app.close();
        }
      });
    });

    it.each(['contactId=abc', 'contactId=0', 'contactId=1.5', 'contactId=2&contactId=3', 'verbose=1'])(
      'refuses a bad query (%s) with a 400 error body and no CRM call',
      async (query) => {
        const response = await test.get(`/api/health?${query}`, admin);
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ statusCode: 400, message: expect.any(String) });
        expect(test.emulator.calls).toEqual([]);
      },
    );
  });
});

describe('diagnostics outside production', () => {
  it('needs the admin key against a CRM, whatever NODE_ENV says', async () => {
    const live = await startTestApp({
      emulator: { model: createDemoModel() },
      env: { NODE_ENV: 'development' },
    });
    try {
      const response = await live.get(`/api/health?contactId=${DEMO_PERSON_ID}`);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'ADMIN_KEY_INVALID' });
      expect(live.emulator.calls).toEqual([]);
      const allowed = await live.get(`/api/health?contactId=${DEMO_PERSON_ID}`, {
        'X-Admin-Key': TEST_ADMIN_KEY,
      });
      expect(allowed.status).toBe(200);
    } finally {
      await live.close();
    }
  });

  it('stays open in stub mode, which holds only demo data', async () => {
    const stub = await startTestApp({ stub: true, env: { NODE_ENV: 'development' } });
    try {
      expect((await stub.get(`/api/health?contactId=${DEMO_PERSON_ID}`)).status).toBe(200);
    } finally {
      await stub.close();
    }
  });

  it('limits wrong admin keys per address like wrong checksums', async () => {
    const live = await startTestApp({ emulator: { model: createDemoModel() } });
    try {
      const statuses = await Promise.all(
        Array.from(
          { length: 40 },
          async () => (await live.get('/api/health', { 'X-Admin-Key': 'not-the-admin-key-000' })).status,
        ),
      );
      expect(statuses.filter((status) => status === 401)).toHaveLength(10);
      expect(statuses.filter((status) => status === 429)).toHaveLength(30);
    } finally {
      await live.close();
    }
  });
});

describe('health routes in production', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await startTestApp({
      emulator: { model: createDemoModel() },
      env: { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://checkin.example.org' },
    });
  });

  afterAll(() => test.close());

  beforeEach(() => test.emulator.reset());

  it.each([
    ['no key', {}],
    ['a wrong key', { 'X-Admin-Key': `${TEST_ADMIN_KEY}-wrong` }],
  ])('keeps the diagnostics behind the admin key (%s): 401 and no CRM call', async (_case, headers) => {
    const response = await test.get(`/api/health?contactId=${DEMO_PERSON_ID}`, headers);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      statusCode: 401,
      code: 'ADMIN_KEY_INVALID',
      message: 'The admin key is missing or wrong.',
    });
    expect(test.emulator.calls).toEqual([]);
  });

  it('shows the diagnostics with the admin key', async () => {
    const response = await test.get(`/api/health?contactId=${DEMO_PERSON_ID}`, {
      'X-Admin-Key': TEST_ADMIN_KEY,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', error: {} });
  });

  it('leaves liveness and readiness open for the platform', async () => {
    expect((await test.get('/api/health/live')).status).toBe(200);
    expect((await test.get('/api/health/ready')).status).toBe(200);
  });
});
