import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * docs/upgrading.md's commands (run by tools/civicrm/upgrade-run.mjs on a real CiviCRM) and the
 * part of docs/civicrm-setup.md they run again (follow-setup-guide.mjs --steps 2-6 --from-shell).
 */
const ROOT = join(__dirname, '../../..');

function printed(script: string): string {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout;
}

describe('re-running the set-up steps (follow-setup-guide.mjs --steps 2-6 --from-shell)', () => {
  const script = printed(`
    import { readFileSync } from 'node:fs';
    import { guideScript } from './tools/civicrm/follow-setup-guide.mjs';
    process.stdout.write(guideScript(readFileSync('docs/civicrm-setup.md', 'utf8'), null, 'all', [2, 6]));
  `);

  it('runs the extension, build, schema, API-user and settings steps, and neither starts nor stops the service', () => {
    for (const command of [
      'civicrm-extension/install.sh',
      'npm run build',
      'npm run crm:schema -- --apply',
      'tools/civicrm/create-api-user.sh',
      '"$CHECKIN_ENV_FILE.new"',
    ]) {
      expect(script).toContain(command);
    }
    expect(script).not.toContain('start-production.mjs');
    expect(script).not.toContain('kill ');
  });

  it("takes step 0's values from the calling shell, stopping when one is missing", () => {
    expect(script).toContain(
      'export CIVICRM_URL="${CIVICRM_URL:?export CIVICRM_URL first (docs/civicrm-setup.md, step 0)}"',
    );
    const missing = spawnSync('bash', ['-c', script], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '' },
    });
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain('export CIVICRM_URL first');
  });
});

describe("docs/upgrading.md's commands", () => {
  const script = printed(`
    import { readFileSync } from 'node:fs';
    import { extractBlocks, guideScript } from './tools/civicrm/follow-setup-guide.mjs';
    const markdown = readFileSync('docs/upgrading.md', 'utf8');
    const names = [...extractBlocks(markdown)[0].code.matchAll(/^export (\\w+)=/gm)].map((m) => m[1]);
    process.stdout.write(guideScript(markdown, Object.fromEntries(names.map((n) => [n, '<' + n + '>']))));
  `);

  it('build beside, run the set-up steps again, switch, then check the new version', () => {
    const order = [
      'git -C "$NEW_SOURCE" archive "$NEW_RELEASE"',
      "s/^([A-Z_]+)=(.*)$/\\1='\\2'/",
      'follow-setup-guide.mjs --run . --steps 2-6 --from-shell',
      'mv -T "$CHECKIN_HOME/current.new" "$CHECKIN_HOME/current"',
      'node tools/build/start-production.mjs',
      '.details.service.version == $version',
    ].map((command) => script.indexOf(command));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('is valid bash', () => {
    const check = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
});
