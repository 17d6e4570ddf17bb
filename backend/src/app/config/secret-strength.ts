/**
 * What production refuses as a secret (docs/decisions.md, "Secrets production refuses"). Each
 * problem names the setting, so an administrator knows which value to replace. Outside
 * production the tests and stub mode run with short, readable keys, so nothing is refused there.
 */
import { SETTINGS } from './settings';

/**
 * A setting is a secret by its name: a key or a password. One rule rather than a list, so a key
 * added to SETTINGS later (a signing key, a previous key kept for rotation) is held to the same
 * strength and distinctness checks without anyone remembering to list it.
 */
const SECRET_NAME = /(^|_)(KEY|PASSWORD|SECRET)(_|$)/;

/** The settings that guard something, in SETTINGS' order; each must be unlike the others. */
export const SECRET_SETTINGS: readonly string[] = SETTINGS.map((setting) => setting.name).filter((name) =>
  SECRET_NAME.test(name),
);

/** CiviCRM makes no rule for API keys; one a person could guess in a day is no key. */
export const CRM_API_KEY_MIN_LENGTH = 16;

/** Fewer different characters than this is a key typed by hand ("aaaa…", "abab…", "1111…"). */
const MIN_DISTINCT_CHARACTERS = 8;

/**
 * Words of the documented examples and the usual stand-ins (`.env.example` once held
 * `<a long random string>`); a key containing one was copied, not generated.
 */
const PLACEHOLDER_WORDS = [
  'random string',
  'long random',
  'change-me',
  'changeme',
  'change_me',
  'replace-me',
  'replaceme',
  'your-key',
  'your_key',
  'example',
  'placeholder',
  'secret-key',
  'api_key',
];

export function secretProblems(values: Readonly<Record<string, string | undefined>>): string[] {
  const problems: string[] = [];
  const present = SECRET_SETTINGS.filter((name) => Boolean(values[name]));
  for (const name of present) {
    const value = values[name] as string;
    if (/[<>]/.test(value) || PLACEHOLDER_WORDS.some((word) => value.toLowerCase().includes(word))) {
      problems.push(`${name} is a placeholder, not a key: generate one (e.g. openssl rand -base64 32)`);
    } else if (new Set(value).size < MIN_DISTINCT_CHARACTERS) {
      problems.push(
        `${name} uses fewer than ${MIN_DISTINCT_CHARACTERS} different characters: generate a random one (e.g. openssl rand -base64 32)`,
      );
    }
  }
  const apiKey = values['CRM_API_KEY'];
  if (apiKey && apiKey.length < CRM_API_KEY_MIN_LENGTH) {
    problems.push(
      `CRM_API_KEY must be at least ${CRM_API_KEY_MIN_LENGTH} characters: give the API user a longer key`,
    );
  }
  for (const name of present) {
    for (const other of present) {
      if (name === other) continue;
      const [value, otherValue] = [values[name] as string, values[other] as string];
      if (value === otherValue) {
        if (SECRET_SETTINGS.indexOf(name) < SECRET_SETTINGS.indexOf(other)) {
          problems.push(`${other} must differ from ${name}: each key guards something else`);
        }
      } else if (value.includes(otherValue)) {
        problems.push(`${name} contains ${other}: knowing one must not give the other`);
      }
    }
  }
  return problems;
}
