import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The service's bundle carries the in-memory model (stub mode needs it) but never the HTTP
 * emulator: that is built apart, as dist/backend/emulator.js (docs/emulator.md). The check
 * follows the imports from main.ts, so it needs no build; a built main.js is checked too.
 */

const ROOT = join(__dirname, '..', '..');
const EMULATOR_SOURCES = ['libs/civicrm-fake/src/emulator.ts', 'libs/civicrm-fake/src/lib/emulator/'];

const aliases: Record<string, string[]> = (
  JSON.parse(readFileSync(join(ROOT, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  }
).compilerOptions.paths;

/** Imports that survive compilation: `import type` and `export type` are erased. */
const RUNTIME_IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g;

function resolveImport(specifier: string, fromFile: string): string | undefined {
  const aliased = aliases[specifier]?.[0];
  const base = aliased
    ? join(ROOT, aliased)
    : specifier.startsWith('.')
      ? resolve(dirname(fromFile), specifier)
      : undefined;
  if (!base) return undefined;
  return [base, `${base}.ts`, join(base, 'index.ts')].find(
    (candidate) => candidate.endsWith('.ts') && existsSync(candidate),
  );
}

/** Every repository source file the entry point reaches at run time, relative to the root. */
function reachableFrom(entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [join(ROOT, entry)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    const name = relative(ROOT, file);
    if (seen.has(name)) continue;
    seen.add(name);
    for (const match of readFileSync(file, 'utf8').matchAll(RUNTIME_IMPORT)) {
      const target = resolveImport(match[1] ?? match[2] ?? '', file);
      if (target) pending.push(target);
    }
  }
  return seen;
}

const isEmulatorSource = (file: string) => EMULATOR_SOURCES.some((source) => file.startsWith(source));

describe('the service bundle and the CiviCRM emulator', () => {
  it('main.ts reaches the in-memory model but none of the emulator sources', () => {
    const reached = [...reachableFrom('backend/src/main.ts')];
    expect(reached).toContain('libs/civicrm-fake/src/index.ts');
    expect(reached.filter(isEmulatorSource)).toEqual([]);
  });

  it('the emulator entry point does reach them (the check can see them)', () => {
    const reached = [...reachableFrom('backend/src/app/crm/emulator/emulator.main.ts')];
    expect(reached).toContain('libs/civicrm-fake/src/lib/emulator/civicrm-emulator.ts');
  });

  const builtMain = join(ROOT, 'dist', 'backend', 'main.js');
  (existsSync(builtMain) ? it : it.skip)(
    'a built dist/backend/main.js holds the model, not the emulator',
    () => {
      // The bundle names modules by number, so the classes themselves are looked for.
      const bundle = readFileSync(builtMain, 'utf8');
      expect(bundle).toMatch(/^class CiviCrmModel /m);
      expect(bundle).not.toMatch(/^class CiviCrmEmulator /m);
      expect(readFileSync(join(ROOT, 'dist', 'backend', 'emulator.js'), 'utf8')).toMatch(
        /^class CiviCrmEmulator /m,
      );
    },
  );
});
