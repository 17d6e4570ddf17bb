import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The setup guide's permission table and the lists create-api-user.sh grants must not drift:
 * the lists are what the real-CiviCRM permissions spec measures.
 */
const ROOT = join(__dirname, '../../..');

function listed(file: string): string[] {
  return readFileSync(join(ROOT, 'tools/civicrm', file), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

describe('docs/civicrm-setup.md', () => {
  const guide = readFileSync(join(ROOT, 'docs/civicrm-setup.md'), 'utf8');

  it("lists in its permission table exactly the API user's permissions", () => {
    const table = [...guide.matchAll(/^\| _([^_|]+)_ +\|/gm)].map((match) => match[1]);
    expect(table).toEqual(listed('api-user-permissions.txt'));
  });

  it('names the permissions CiviCRM 5.x needs on top', () => {
    for (const permission of listed('api-user-permissions-5.81.txt')) {
      expect(guide).toContain(`On CiviCRM 5.x (5.81) add _${permission}_`);
    }
  });
});

describe("docs/civicrm-setup.md's commands (tools/civicrm/follow-setup-guide.mjs)", () => {
  const guide = readFileSync(join(ROOT, 'docs/civicrm-setup.md'), 'utf8');
  const printed = spawnSync(
    process.execPath,
    [join(ROOT, 'tools/civicrm/follow-setup-guide.mjs'), '--print'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '' },
    },
  );

  it('extracts every marked block, in order, with step 0 replaced by placeholders for its values', () => {
    expect(printed.status).toBe(0);
    const marked = guide.match(/^<!-- guide:(run|variables|stop) -->$/gm) ?? [];
    expect(printed.stdout.match(/^# docs\/civicrm-setup.md, line \d+$/gm)).toHaveLength(marked.length);
    expect(printed.stdout).toContain("export CIVICRM_URL='<GUIDE_CIVICRM_URL>'");
    expect(printed.stdout).not.toContain('https://crm.example.org');
  });

  it('goes from the extension to a ready, healthy service: build, schema, API user, settings, start, cron', () => {
    const order = [
      'civicrm-extension/install.sh',
      'npm run build',
      'npm run crm:schema -- --apply',
      'tools/civicrm/create-api-user.sh',
      '> "$CHECKIN_ENV_FILE.new"',
      'node tools/build/start-production.mjs',
      '/api/health/ready',
      'entity=Job&action=execute',
      'X-Admin-Key: $ADMIN_KEY',
      'kill "$(cat checkin.pid)"',
    ].map((command) => printed.stdout.indexOf(command));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('is valid bash', () => {
    const check = spawnSync('bash', ['-n'], { input: printed.stdout, encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
});
