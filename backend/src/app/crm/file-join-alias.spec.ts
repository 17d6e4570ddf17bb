import { fileJoinAlias } from './crm-values';

/** The aliases CiviCRM accepts for an explicit join (Api4SelectQuery::addExplicitJoins). */
const LEGAL = /^[-\w]{1,256}$/;

describe('fileJoinAlias', () => {
  it('keeps a configured field plain', () => {
    expect(fileJoinAlias({ name: 'Business_plan' })).toBe('file_Business_plan');
  });

  it('makes any name a legal, distinct, stable alias', () => {
    const names = [
      'Check_in_organizing.Lease',
      'Check_in_organizing_Lease',
      'Check_in_organizing-Lease',
      `${'G'.repeat(64)}.${'F'.repeat(64)}`,
      'x'.repeat(400),
      `${'x'.repeat(400)}y`,
      'Groupe_é.Champ ü',
    ];
    const aliases = names.map((name) => fileJoinAlias({ name }));
    for (const alias of aliases) expect(alias).toMatch(LEGAL);
    expect(new Set(aliases).size).toBe(names.length);
    expect(names.map((name) => fileJoinAlias({ name }))).toEqual(aliases);
  });
});
