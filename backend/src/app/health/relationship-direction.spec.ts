import type { ContactSummary } from '@checkin/contract';
import { directionProblems, personSide, type RelationshipSides } from './relationship-direction';

const person: ContactSummary = { id: 7, contactType: 'Individual', displayName: 'Ada Person' };
const organization: ContactSummary = { id: 9, contactType: 'Organization', displayName: 'Co-op' };

function relationship(overrides: Partial<RelationshipSides>): RelationshipSides {
  return {
    typeName: 'Primary Contact',
    contactA: person,
    contactB: organization,
    expectedContactTypeA: 'Individual',
    expectedContactTypeB: 'Organization',
    ...overrides,
  };
}

describe('personSide', () => {
  it('puts the person on side A for a type that says Individual on A', () => {
    expect(personSide('Individual', 'Organization')).toBe('a');
  });

  it('puts the person on side B for a type that says Individual on B only', () => {
    expect(personSide('Organization', 'Individual')).toBe('b');
  });

  it('falls back to side A when the type does not say', () => {
    expect(personSide(null, null)).toBe('a');
    expect(personSide('Individual', 'Individual')).toBe('a');
  });
});

describe('directionProblems', () => {
  it('finds nothing wrong with a relationship entered the way its type reads', () => {
    expect(directionProblems(relationship({}))).toEqual([]);
  });

  it('accepts any contact on a side the type leaves open', () => {
    expect(directionProblems(relationship({ expectedContactTypeB: null, contactB: person }))).toEqual([]);
  });

  it('says to swap the contacts when they were entered backwards', () => {
    expect(directionProblems(relationship({ contactA: organization, contactB: person }))).toEqual([
      "Entered backwards: 'Primary Contact' puts an Individual on side A and an Organization on side B, " +
        'but contact 9 (side A) is an Organization and contact 7 (side B) is an Individual. Swap the two contacts.',
    ]);
  });

  it('names the side that does not match when swapping would not help', () => {
    const household: ContactSummary = { id: 11, contactType: 'Household', displayName: 'The Smiths' };
    expect(directionProblems(relationship({ contactB: household }))).toEqual([
      "Side B of 'Primary Contact' should be an Organization, but contact 11 is a Household.",
    ]);
  });

  it('describes a contact whose type the CRM did not return', () => {
    const unknown: ContactSummary = { id: 12, contactType: null, displayName: null };
    expect(directionProblems(relationship({ typeName: null, contactA: unknown }))).toEqual([
      "Side A of 'this relationship type' should be an Individual, but contact 12 is a contact of unknown type.",
    ]);
  });
});
