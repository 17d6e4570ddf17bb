import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The fake is built by composition (docs/emulator.md, "How the model is built"): collaborators
 * share one store instead of inheriting each other's state. This keeps it so: no class of the
 * library extends a class that itself extends one of the library's classes.
 */
describe('the fake CiviCRM’s structure', () => {
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? sources(join(dir, entry.name))
        : entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')
          ? [join(dir, entry.name)]
          : [],
    );
  const parents = new Map<string, string>();
  for (const file of sources(join(__dirname, '..'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\bclass (\w+)(?:<[^>]*>)? extends (\w+)/g)) {
      parents.set(match[1] ?? '', match[2] ?? '');
    }
  }
  const depth = (name: string): number => {
    const parent = parents.get(name);
    return parent === undefined ? 0 : 1 + depth(parent);
  };

  it('finds the classes it checks', () => {
    expect(parents.get('CrmFatalError')).toBe('Api4Error');
  });

  it('has no class chain deeper than two', () => {
    const deep = [...parents.keys()].filter((name) => depth(name) > 2);
    expect(deep).toEqual([]);
  });
});
