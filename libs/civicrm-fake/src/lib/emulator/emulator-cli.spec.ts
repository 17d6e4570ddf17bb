import { DEFAULT_EMULATOR_API_KEY, parseEmulatorArgs } from '../../emulator';

describe('emulator command line', () => {
  it('defaults to port 8089 and the default key', () => {
    expect(parseEmulatorArgs([])).toEqual({
      port: 8089,
      apiKey: DEFAULT_EMULATOR_API_KEY,
      latencyMs: 0,
      recordLimit: 1_000,
      civicrmVersion: '6.14',
      extensionInstalled: true,
      timeZone: 'UTC',
    });
  });

  it('reads the CiviCRM version, the extension and the time zone to imitate', () => {
    expect(
      parseEmulatorArgs(['--civicrm-version', '5.81', '--extension=no', '--timezone', 'America/Chicago']),
    ).toMatchObject({ civicrmVersion: '5.81', extensionInstalled: false, timeZone: 'America/Chicago' });
    expect(() => parseEmulatorArgs(['--civicrm-version', '5.80'])).toThrow(/civicrm-version/);
    expect(() => parseEmulatorArgs(['--extension', 'maybe'])).toThrow(/extension/);
    expect(() => parseEmulatorArgs(['--timezone', 'Mars/Olympus'])).toThrow(/timezone/);
  });

  it('reads one more API user with its permissions', () => {
    expect(
      parseEmulatorArgs(['--api-user', 'form-key=authenticate with api key, access CiviCRM']),
    ).toMatchObject({
      apiUsers: { 'form-key': { permissions: ['authenticate with api key', 'access CiviCRM'] } },
    });
    expect(() => parseEmulatorArgs(['--api-user', 'form-key'])).toThrow(/api-user/);
  });

  it('reads --port, --api-key and --site-key in both spellings', () => {
    expect(parseEmulatorArgs(['--port', '9000', '--api-key=k', '--site-key', 's'])).toEqual({
      port: 9000,
      apiKey: 'k',
      siteKey: 's',
      latencyMs: 0,
      recordLimit: 1_000,
      civicrmVersion: '6.14',
      extensionInstalled: true,
      timeZone: 'UTC',
    });
  });

  it('refuses unknown options and bad ports', () => {
    expect(() => parseEmulatorArgs(['--nope', '1'])).toThrow(/Unknown option/);
    expect(() => parseEmulatorArgs(['--port', 'x'])).toThrow(/port/);
  });
});
