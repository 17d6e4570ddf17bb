import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The schema installer (`npm run crm:schema`) is a command-line tool beside the service: the
 * service imports none of it. What both need to know about the CRM (the custom groups and their
 * fields) lives in app/fields/custom-groups.ts, which the installer imports.
 */
const SRC = resolve(__dirname, '..');
const INSTALLER = resolve(__dirname);

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return path === INSTALLER ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && entry.name !== 'crm-schema.main.ts' ? [path] : [];
  });
}

/** The relative specifiers in `source` (`import … from`, `export … from`, `import('…')`) that lead into the installer. */
function installerImports(file: string, source: string): string[] {
  const pattern = /(?:\bfrom\s+|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
  return [...source.matchAll(pattern)]
    .map((match) => match[1] ?? '')
    .filter((specifier) => resolve(dirname(file), specifier).startsWith(INSTALLER + sep));
}

describe('the schema installer stays outside the service', () => {
  it('has no file of the service importing backend/src/crm-schema', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) =>
      installerImports(file, readFileSync(file, 'utf8')).map(
        (specifier) => `${relative(SRC, file)} imports ${specifier}`,
      ),
    );
    expect(found).toEqual([]);
  });

  it('tells an import of the installer from a CRM module file of a similar name', () => {
    const file = join(SRC, 'app', 'health', 'custom-groups.diagnostic.ts');
    const source = [
      "import { desiredSchema } from '../../crm-schema/desired-schema';",
      "import { rankStages } from '../crm/crm-schema.service';",
      "export { plan } from '../../crm-schema/plan';",
    ].join('\n');
    expect(installerImports(file, source)).toEqual([
      '../../crm-schema/desired-schema',
      '../../crm-schema/plan',
    ]);
  });
});
