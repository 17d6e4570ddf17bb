import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * docs/civicrm-setup.md, "Run it as a service": the systemd unit in deploy/ and the settings
 * file the guide writes, which bash (`. file`) and systemd's EnvironmentFile= must read alike.
 */
const ROOT = join(__dirname, '..', '..');
const UNIT = join(ROOT, 'deploy', 'checkin-middleware.service');
const GUIDE = readFileSync(join(ROOT, 'docs', 'civicrm-setup.md'), 'utf8');
const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze';
/** systemd's own parser of `NAME=value` files (the one environment.d uses; EnvironmentFile= shares its quoting). */
const ENV_FILE_PARSER = '/usr/lib/systemd/user-environment-generators/30-systemd-environment-d-generator';

/** `[Section]` → `Key` → values, as systemd reads a unit (comments and blank lines skipped). */
function unitSettings(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) continue;
    const section = /^\[(\w+)\]$/.exec(trimmed);
    if (section?.[1]) {
      current = new Map();
      sections.set(section[1], current);
      continue;
    }
    const assignment = /^([A-Za-z]+)=(.*)$/.exec(trimmed);
    if (!assignment?.[1] || !current) throw new Error(`not a unit line: ${line}`);
    current.set(assignment[1], [...(current.get(assignment[1]) ?? []), assignment[2] ?? '']);
  }
  return sections;
}

/** The guide's `setting` function (step 6), as its block defines it. */
function guideSettingFunction(): string {
  const match = /^setting\(\) \{\n[\s\S]*?\n\}$/m.exec(GUIDE);
  if (!match) throw new Error('docs/civicrm-setup.md has no setting() function');
  return match[0];
}

describe('deploy/checkin-middleware.service', () => {
  const unit = unitSettings(readFileSync(UNIT, 'utf8'));
  const service = unit.get('Service') ?? new Map<string, string[]>();
  const one = (key: string) => service.get(key)?.[0];

  it('logs to the journal, reads its settings from a file outside the checkout, runs the built service', () => {
    expect(one('StandardOutput')).toBe('journal');
    expect(one('StandardError')).toBe('journal');
    const settingsFile = one('EnvironmentFile') ?? '';
    const workingDirectory = one('WorkingDirectory') ?? '';
    expect(settingsFile.startsWith('/')).toBe(true);
    expect(settingsFile.startsWith(`${workingDirectory}/`)).toBe(false);
    expect(one('ExecStart')).toBe('/usr/bin/node dist/backend/main.js');
    expect(unit.get('Install')?.get('WantedBy')).toEqual(['multi-user.target']);
  });

  it("is confined by systemd's hardening options", () => {
    expect(Object.fromEntries([...service].map(([key, values]) => [key, values.join(' | ')]))).toMatchObject({
      NoNewPrivileges: 'yes',
      ProtectSystem: 'strict',
      ProtectHome: 'yes',
      PrivateTmp: 'yes',
      PrivateDevices: 'yes',
      ProtectKernelTunables: 'yes',
      ProtectKernelModules: 'yes',
      ProtectControlGroups: 'yes',
      RestrictSUIDSGID: 'yes',
      CapabilityBoundingSet: '',
      RestrictAddressFamilies: 'AF_INET AF_INET6 AF_UNIX',
      SystemCallFilter: '@system-service | ~@privileged',
    });
  });

  const verify = existsSync(SYSTEMD_ANALYZE) ? it : it.skip;
  verify('passes `systemd-analyze verify` without a word (an unknown option only warns)', () => {
    const result = spawnSync(SYSTEMD_ANALYZE, ['verify', UNIT], { encoding: 'utf8' });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('the settings file docs/civicrm-setup.md writes', () => {
  const values: Record<string, string> = {
    ORGANIZER_NAME: 'Olu Organizer',
    ORGANIZER_EMAIL: 'olu@example.org',
    FILE_LINK_KEY: 'k7+/Qm2Rt9Vx4Lp8Wn3Jd6Hs1Gf5Ba0Ze==',
    CRM_FILE_ROUTE: '/civicrm/checkin-file?id={id}',
    PUBLIC_BASE_URL: 'https://checkin.example.org',
  };
  const dir = mkdtempSync(join(tmpdir(), 'checkin-settings-'));
  const file = join(dir, 'checkin.env');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function writeWithGuide(settings: Record<string, string>) {
    const lines = Object.keys(settings)
      .map((name) => `setting ${name} "$VALUE_${name}"`)
      .join('\n');
    return spawnSync(
      'bash',
      ['-c', `set -euo pipefail\n${guideSettingFunction()}\n{\n${lines}\n} > "$1"`, 'guide', file],
      {
        encoding: 'utf8',
        env: {
          PATH: process.env['PATH'] ?? '',
          ...Object.fromEntries(Object.entries(settings).map(([name, value]) => [`VALUE_${name}`, value])),
        },
      },
    );
  }

  it('reads the same in bash as written, a value with a space included', () => {
    expect(writeWithGuide(values).status).toBe(0);
    const names = Object.keys(values);
    const read = spawnSync(
      'bash',
      [
        '-c',
        `set -a; . "$1"; set +a; for name in ${names.join(' ')}; do printf '%s=%s\\n' "$name" "\${!name}"; done`,
        'read',
        file,
      ],
      { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } },
    );
    expect(read.stdout).toBe(names.map((name) => `${name}=${values[name]}\n`).join(''));
  });

  const systemdParser = existsSync(ENV_FILE_PARSER) ? it : it.skip;
  systemdParser("reads the same with systemd's parser of environment files", () => {
    expect(writeWithGuide(values).status).toBe(0);
    const home = join(dir, 'home');
    mkdirSync(join(home, '.config', 'environment.d'), { recursive: true });
    writeFileSync(join(home, '.config', 'environment.d', '50-checkin.conf'), readFileSync(file));
    const parsed = spawnSync(ENV_FILE_PARSER, [], {
      encoding: 'utf8',
      env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') },
    });
    const read = Object.fromEntries(
      parsed.stdout
        .split('\n')
        .map((line) => /^(\w+)=(.*)$/.exec(line))
        .filter((match): match is RegExpExecArray => match !== null)
        // It prints a value with spaces in double quotes.
        .map((match) => [match[1], (match[2] ?? '').replace(/^"(.*)"$/, '$1')]),
    );
    expect(read).toMatchObject(values);
  });

  it("refuses a value bash and systemd would read differently (a ')", () => {
    const result = writeWithGuide({ ORGANIZER_NAME: "Olu O'Organizer" });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('the value of ORGANIZER_NAME holds');
  });

  it('is git-ignored should an older guide have written it into the checkout', () => {
    const ignored = spawnSync('git', ['check-ignore', '-q', 'checkin.env'], { cwd: ROOT });
    expect(ignored.status).toBe(0);
  });
});
