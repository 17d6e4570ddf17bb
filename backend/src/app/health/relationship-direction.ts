import type { ContactSummary } from '@checkin/contract';

/** A relationship with both contacts' types and the types its relationship type expects. */
export interface RelationshipSides {
  typeName: string | null;
  contactA: ContactSummary;
  contactB: ContactSummary;
  expectedContactTypeA: string | null;
  expectedContactTypeB: string | null;
}

export { personSide } from '../crm/relationship-sides';

/**
 * What is wrong with the way a relationship was entered, in words an operator can act on:
 * a contact on a side whose type does not match it, or both contacts swapped.
 */
export function directionProblems(relationship: RelationshipSides): string[] {
  const { contactA, contactB, expectedContactTypeA, expectedContactTypeB } = relationship;
  const fitsA = fits(contactA.contactType, expectedContactTypeA);
  const fitsB = fits(contactB.contactType, expectedContactTypeB);
  if (fitsA && fitsB) return [];
  const typeName = relationship.typeName ?? 'this relationship type';
  const swappedFits =
    fits(contactB.contactType, expectedContactTypeA) && fits(contactA.contactType, expectedContactTypeB);
  if (swappedFits) {
    return [
      `Entered backwards: '${typeName}' puts ${article(expectedContactTypeA)} on side A and ` +
        `${article(expectedContactTypeB)} on side B, but contact ${contactA.id} (side A) is ` +
        `${article(contactA.contactType)} and contact ${contactB.id} (side B) is ${article(contactB.contactType)}. ` +
        'Swap the two contacts.',
    ];
  }
  const problems: string[] = [];
  if (!fitsA) problems.push(sideProblem('A', contactA, expectedContactTypeA, typeName));
  if (!fitsB) problems.push(sideProblem('B', contactB, expectedContactTypeB, typeName));
  return problems;
}

function fits(actual: string | null, expected: string | null): boolean {
  return expected === null || actual === expected;
}

function sideProblem(
  side: 'A' | 'B',
  contact: ContactSummary,
  expected: string | null,
  typeName: string,
): string {
  return (
    `Side ${side} of '${typeName}' should be ${article(expected)}, ` +
    `but contact ${contact.id} is ${article(contact.contactType)}.`
  );
}

function article(contactType: string | null): string {
  if (contactType === null) return 'a contact of unknown type';
  return `${/^[AEIOU]/i.test(contactType) ? 'an' : 'a'} ${contactType}`;
}
