import type { ErrorBody, OrganizationChoices, OrganizerContact } from '@checkin/contract';
import { randomUUID } from 'node:crypto';
import {
  createDemoModel,
  DEMO_CHECKSUM,
  DEMO_ORG_ID,
  DEMO_PERSON_ID,
  MULTI_ORG_IDS,
  MULTI_ORG_PERSON_CHECKSUM,
  MULTI_ORG_PERSON_ID,
} from '../src/app/crm/in-memory/demo-data';
import { ownerQuery, startTestApp } from './support/test-app';
import { sharedTestApp } from './support/shared-app';

/** What owners are told when something goes wrong: who to contact, which co-op, why a refusal. */
describe('owner help routes', () => {
  const service = sharedTestApp(
    {
      emulator: { model: createDemoModel() },
      env: { ORGANIZER_NAME: 'Sam Rivera', ORGANIZER_EMAIL: 'sam@example.org' },
    },
    { resetEmulator: false },
  );

  describe('GET /api/organizer', () => {
    it('answers the organizer contact without any link', async () => {
      const response = await service.get('/api/organizer');
      expect(response.status).toBe(200);
      expect((await response.json()) as OrganizerContact).toEqual({
        name: 'Sam Rivera',
        email: 'sam@example.org',
      });
    });
  });

  describe('GET /api/organizations', () => {
    const multi = { contactId: MULTI_ORG_PERSON_ID, cid: MULTI_ORG_PERSON_ID, cs: MULTI_ORG_PERSON_CHECKSUM };

    it('lists the co-ops of a person with several, by name, for a valid link without orgId', async () => {
      // The form's own route refuses the same link with ORG_REQUIRED.
      expect((await service.get(`/api/data?${ownerQuery(multi)}`)).status).toBe(400);

      const response = await service.get(`/api/organizations?${ownerQuery(multi)}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect((await response.json()) as OrganizationChoices).toEqual({
        organizations: [
          { id: MULTI_ORG_IDS[1], name: 'Lakeshore Community Grocery' },
          { id: MULTI_ORG_IDS[0], name: 'Northside Market Co-op' },
        ],
      });
    });

    it('answers nothing for a wrong checksum or another person’s contactId', async () => {
      const wrong = await service.get(`/api/organizations?${ownerQuery({ ...multi, cs: 'wrong' })}`);
      expect(wrong.status).toBe(401);
      expect(((await wrong.json()) as ErrorBody).code).toBe('CHECKSUM_INVALID');

      const mismatch = await service.get(
        `/api/organizations?${ownerQuery({ ...multi, contactId: DEMO_PERSON_ID })}`,
      );
      expect(mismatch.status).toBe(403);
    });

    it.each([
      ['form', '/'],
      ['report', '/report'],
    ])('the %s page, rendered for that link, lists the co-ops as it arrives', async (_, path) => {
      service.emulator.clearCalls();
      const response = await service.get(`${path}?${ownerQuery(multi)}`);
      expect(response.status).toBe(200);
      const page = await response.text();
      // Each co-op is a link to the same page with the same personal link and its orgId.
      for (const [index, name] of [
        [1, 'Lakeshore Community Grocery'],
        [0, 'Northside Market Co-op'],
      ] as const) {
        const query = `contactId=${MULTI_ORG_PERSON_ID}&amp;orgId=${MULTI_ORG_IDS[index]}&amp;cid=${MULTI_ORG_PERSON_ID}&amp;cs=${MULTI_ORG_PERSON_CHECKSUM}`;
        expect(page).toMatch(
          new RegExp(`<a [^>]*href="${path.replace('/', '\\/')}\\?${query}"[^>]*>\\s*${name}\\s*</a>`),
        );
      }
      // The answer travels in the page too (Angular's transfer state writes "/" as \u002F): the
      // browser makes no request for it.
      expect(page).toContain(
        `"url":"\\u002Fapi\\u002Forganizations?contactId=${MULTI_ORG_PERSON_ID}&cid=${MULTI_ORG_PERSON_ID}&cs=`,
      );
    });
  });

  describe('POST /api/submit refusals', () => {
    it('say why each answer was refused', async () => {
      const response = await service.post('/api/submit', {
        contactId: DEMO_PERSON_ID,
        orgId: DEMO_ORG_ID,
        cid: DEMO_PERSON_ID,
        cs: DEMO_CHECKSUM,
        submissionId: randomUUID(),
        values: { Steering_committee_size: 101, Organizing_meeting_date: '2026-02-30' },
      });
      expect(response.status).toBe(400);
      expect((await response.json()) as ErrorBody).toMatchObject({
        code: 'VALIDATION_FAILED',
        fields: ['Steering_committee_size', 'Organizing_meeting_date'],
        reasons: {
          Steering_committee_size: 'enter 100 or less.',
          Organizing_meeting_date: 'enter a real date.',
        },
      });
    });
  });
});

describe('GET /api/organizer without the settings', () => {
  it('answers nulls, so pages fall back to general wording', async () => {
    const service = await startTestApp({ stub: true });
    try {
      expect(await (await service.get('/api/organizer')).json()).toEqual({ name: null, email: null });
    } finally {
      await service.close();
    }
  });
});
