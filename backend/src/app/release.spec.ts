import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listeningLine, SERVICE_VERSION } from './release';

const ROOT = join(__dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('the release (docs/releasing.md)', () => {
  it('is a semantic version, the same in package.json', () => {
    expect(SERVICE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect((JSON.parse(read('package.json')) as { version: string }).version).toBe(SERVICE_VERSION);
  });

  it("is named by the extension's info.xml, which ships with it", () => {
    expect(read('civicrm-extension/info.xml')).toContain(`check-in service ${SERVICE_VERSION}`);
  });

  it('has a CHANGELOG.md section with an "Upgrading" note, under the Unreleased heading', () => {
    const changelog = read('CHANGELOG.md');
    const headings = [...changelog.matchAll(/^## \[([^\]]+)\]/gm)].map((match) => match[1]);
    expect(headings[0]).toBe('Unreleased');
    expect(headings).toContain(SERVICE_VERSION);
    expect(headings).toContain('0.1.0');
    for (const version of headings.filter((heading) => heading !== 'Unreleased')) {
      const section = changelog.split(`## [${version}]`)[1]?.split(/^## \[/m)[0] ?? '';
      expect({ version, upgrading: /^### Upgrading$/m.test(section) }).toEqual({ version, upgrading: true });
    }
  });
});

describe('the start-up log line', () => {
  it('names the release first', () => {
    expect(listeningLine('https://checkin.example.org', 'production', 'production')).toBe(
      `checkin-middleware ${SERVICE_VERSION} listening on https://checkin.example.org (production, production build)`,
    );
  });
});
