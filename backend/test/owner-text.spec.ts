import type { FieldValues, FormDataPayload } from '@checkin/contract';
import { randomUUID } from 'node:crypto';
import { OwnerAccessService } from '../src/app/auth/owner-access.service';
import { ACTIVITY_CUSTOM_GROUP, CONTACT_CUSTOM_GROUP } from '../src/app/crm/crm-names';
import { createDemoModel, DEMO_ORG_ID } from '../src/app/crm/in-memory/demo-data';
import { ownerQuery, DEMO_LINK } from './support/test-app';
import { sharedTestApp } from './support/shared-app';

/**
 * The owner-text rule on the server (docs/decisions.md, "Owner text is inert"): ordinary writing
 * is taken as written, and an old stored answer that breaks today's rule is shown escaped and is
 * no reason to refuse a check-in that changes another answer.
 */
const ORDINARY = [
  'Bread&Ltd.',
  'Q&A; AT&T; 5 < 6; I <3 it; "&lt;" as text',
  'https://example.org/?q=co-op&ltd=3&page=2',
  'Coopérative Forêt 🍞 <= 10 members',
];
const OLD_MARKUP = '<img src=x onerror=alert(1)> Riverbend <script>x</script>';
/** CiviCRM's APIv4 reads "&lt;" and "&gt;" back as "<" and ">" (docs/decisions.md, "Owner text is inert"). */
const readBack = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>');
const NAME_FIELD = `${CONTACT_CUSTOM_GROUP}.Name_on_Incorporation_Certificate`;

describe('owner text on the server', () => {
  const service = sharedTestApp(
    {
      emulator: { model: createDemoModel() },
      env: { RATE_LIMIT_SUBMITS_PER_MINUTE: '1000' },
    },
    { resetEmulator: false },
  );

  beforeEach(() => {
    service.emulator.reset();
    service.app.get(OwnerAccessService).clear();
  });

  function submit(values: FieldValues) {
    return service.post('/api/submit', { ...DEMO_LINK, submissionId: randomUUID(), values });
  }

  function storedName(): unknown {
    const [row] = service.emulator.model.api4('Contact', 'get', {
      select: [NAME_FIELD],
      where: [['id', '=', DEMO_ORG_ID]],
    });
    return row?.[NAME_FIELD];
  }

  it.each(ORDINARY)('takes %j as written, in a text and a long-text answer', async (text) => {
    const response = await submit({ Name_on_Incorporation_Certificate: text, Organizing_notes: text });
    expect(response.status).toBe(201);
    expect(storedName()).toBe(readBack(text));
    const [checkIn] = service.emulator.callsTo('Activity', 'create').map((call) => call.params['values']);
    // Sent as written.
    expect(checkIn).toMatchObject({ [`${ACTIVITY_CUSTOM_GROUP}.Organizing_notes`]: text });
  });

  describe('an old stored answer that breaks the rule', () => {
    beforeEach(() => {
      service.emulator.model.api4('Contact', 'update', {
        where: [['id', '=', DEMO_ORG_ID]],
        values: { [NAME_FIELD]: OLD_MARKUP },
      });
    });

    it('is prefilled as data: the JSON carries it, and it never decides the form', async () => {
      const response = await service.get(`/api/data?${ownerQuery(DEMO_LINK)}`);
      expect(response.status).toBe(200);
      const payload = (await response.json()) as FormDataPayload;
      expect(payload.prefill['Name_on_Incorporation_Certificate']).toBe(OLD_MARKUP);
    });

    it('does not refuse a check-in that changes another answer, and stays as stored', async () => {
      const response = await submit({ Equity_share: 250 });
      expect(response.status).toBe(201);
      expect(storedName()).toBe(OLD_MARKUP);
    });

    it('is refused when sent again as a new answer with markup added', async () => {
      const response = await submit({ Name_on_Incorporation_Certificate: `${OLD_MARKUP} <b>` });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        problems: { Name_on_Incorporation_Certificate: 'TEXT_HAS_MARKUP' },
      });
    });
  });
});
