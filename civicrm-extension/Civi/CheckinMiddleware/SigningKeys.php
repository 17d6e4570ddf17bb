<?php

namespace Civi\CheckinMiddleware;

/**
 * The extension's signing keys and the rules a value must meet to be one, the same rules the
 * service applies to its keys in production (docs/decisions.md, "Secrets production refuses"; the service's
 * backend/src/app/config/secret-strength.ts).
 *
 * One list: every setting of settings/checkin_middleware.setting.php whose name ends in `_key`
 * is a signing key. A key added there later is checked on save (its `validate_callback`) and
 * kept distinct from the others without being listed anywhere else.
 */
class SigningKeys {

  public const MIN_LENGTH = 32;

  /** Fewer different characters than this is a key typed by hand ("aaaa…", "abab…"). */
  public const MIN_DISTINCT_CHARACTERS = 8;

  /** Words of documented examples and usual stand-ins: a key holding one was copied, not generated. */
  private const PLACEHOLDER_WORDS = [
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

  /**
   * @return string[] the names of the extension's signing-key settings
   */
  public static function names(): array {
    $settings = include __DIR__ . '/../../settings/checkin_middleware.setting.php';
    return array_values(array_filter(array_keys($settings), fn(string $name) => str_ends_with($name, '_key')));
  }

  /**
   * Why `$value` cannot be the signing key `$name`; none when it can. An empty value is "not set"
   * (the feature is off), never a problem. The value itself is never part of a problem.
   *
   * @param array<string, string>|null $others the other keys' values; NULL: the stored settings
   * @return string[]
   */
  public static function problems(string $name, string $value, ?array $others = NULL): array {
    if ($value === '') {
      return [];
    }
    $problems = [];
    if (strlen($value) < self::MIN_LENGTH) {
      $problems[] = sprintf('%s must be at least %d characters', $name, self::MIN_LENGTH);
    }
    $lower = strtolower($value);
    $placeholder = preg_match('/[<>]/', $value) === 1;
    foreach (self::PLACEHOLDER_WORDS as $word) {
      $placeholder = $placeholder || str_contains($lower, $word);
    }
    if ($placeholder) {
      $problems[] = "$name is a placeholder, not a key: generate one (e.g. openssl rand -base64 32)";
    }
    elseif (count(array_unique(mb_str_split($value))) < self::MIN_DISTINCT_CHARACTERS) {
      $problems[] = sprintf('%s uses fewer than %d different characters: generate a random one (e.g. openssl rand -base64 32)', $name, self::MIN_DISTINCT_CHARACTERS);
    }
    if ($others === NULL) {
      $others = [];
      foreach (self::names() as $other) {
        $others[$other] = (string) (\Civi::settings()->get($other) ?? '');
      }
    }
    foreach ($others as $other => $otherValue) {
      if ($other === $name || $otherValue === '') {
        continue;
      }
      if (str_contains($value, $otherValue) || str_contains($otherValue, $value)) {
        $problems[] = "$name must differ from $other: each key guards something else";
      }
    }
    if (defined('CIVICRM_SITE_KEY') && CIVICRM_SITE_KEY !== '' && str_contains($value, (string) CIVICRM_SITE_KEY)) {
      $problems[] = "$name must differ from the site key (CIVICRM_SITE_KEY)";
    }
    // An API key (the service's CRM_API_KEY among them) opens CiviCRM itself.
    $apiKeyHolder = \CRM_Core_DAO::singleValueQuery(
      "SELECT id FROM civicrm_contact WHERE CHAR_LENGTH(api_key) >= 12 AND LOCATE(BINARY api_key, BINARY %1) > 0 LIMIT 1",
      [1 => [$value, 'String']]
    );
    if ($apiKeyHolder) {
      $problems[] = "$name must differ from every contact's API key (the service's CRM_API_KEY among them)";
    }
    return $problems;
  }

  /**
   * The settings' `validate_callback` (CRM_Core_BAO_Setting::validateSetting, called by APIv4
   * Setting.set and APIv3 Setting.create). It throws its own error so that the refusal names the
   * problem and never echoes the value, as core's generic message would.
   *
   * @param mixed $value
   * @param array $spec the setting's metadata
   */
  public static function validateSetting(&$value, array $spec): bool {
    $name = (string) ($spec['name'] ?? '');
    $problems = self::problems($name, is_scalar($value) ? (string) $value : '');
    if ($problems) {
      throw new \CRM_Core_Exception(implode('; ', $problems));
    }
    return TRUE;
  }

  /**
   * The stored key `$name` when it meets the rules, NULL otherwise: a key stored before the rules
   * existed, or written around the API (Civi::settings()->set() skips validate_callback), switches
   * the feature off rather than sign with a guessable key.
   */
  public static function usable(string $name): ?string {
    $value = (string) (\Civi::settings()->get($name) ?? '');
    return ($value !== '' && !self::problems($name, $value)) ? $value : NULL;
  }

}
