/**
 * The side of a person–organization relationship type that holds the person, read from the
 * type because installs differ: side B only when the type puts an Individual on B and not on A;
 * otherwise side A (stock CiviCRM's habit). Owner access and the diagnostics both ask here.
 */
export function personSide(
  expectedContactTypeA: string | null | undefined,
  expectedContactTypeB: string | null | undefined,
): 'a' | 'b' {
  return expectedContactTypeB === 'Individual' && expectedContactTypeA !== 'Individual' ? 'b' : 'a';
}
