import { ACTIVITY_STAGE_FIELD, FORM_CONTACT_RELATIONSHIP } from '../src/app/crm/crm-names';
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
import { ADMIN_HEADERS, sharedTestApp } from './support/shared-app';

const UP = { status: 'up' };
/** The release that answers (docs/releasing.md). */
const SERVICE = { status: 'up', version: SERVICE_VERSION };
const STAGES = DEMO_STAGES.map(({ rank, value, label }) => ({ rank, value, label }));

/** GET /api/health's diagnostics of the CRM's set-up (docs/operations.md), against the CRM emulator. */
describe('GET /api/health (diagnostics)', () => {
  const test = sharedTestApp({ emulator: { model: createDemoModel() } });
  const admin = ADMIN_HEADERS;

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
      error: Record<string, { relationships: Array<{ id: number; problems: string[] }>; problems: string[] }>;
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
    expect(diagnostic?.problems).toEqual([`Relationship ${relationship?.id}: ${relationship?.problems[0]}`]);
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

  /** The diagnostics' failing probes, by name, once the health route answers 503 for them. */
  async function failingDiagnostics(): Promise<Record<string, Record<string, unknown>>> {
    const response = await test.get('/api/health', admin);
    expect(response.status).toBe(503);
    return ((await response.json()) as { error: Record<string, Record<string, unknown>> }).error;
  }

  it('reports a disabled Primary Contact type with its near matches', async () => {
    const ids = demoIds();
    test.emulator.model.api4('RelationshipType', 'update', {
      values: { is_active: false },
      where: [['id', '=', ids.primaryContactTypeId]],
    });
    const errors = await failingDiagnostics();
    expect(errors['primaryContactType']?.['problems']).toEqual([
      `The relationship type '${FORM_CONTACT_RELATIONSHIP}' is disabled.`,
    ]);
    expect(errors['primaryContactType']?.['nearMatches']).toEqual([
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
    expect((await failingDiagnostics())['stageOptions']).toEqual({
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
