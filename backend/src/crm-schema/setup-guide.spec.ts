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
