<?php

namespace Civi\CheckinMiddleware;

/**
 * The short-lived signed token that opens one co-op's staff report in the service without the
 * shared staff key (README.md, "Staff report from the contact record"):
 *
 *   csl1.<staff contact id>.<organization id>.<expiry, Unix seconds>.<signature>
 *
 * signature = base64url(HMAC-SHA256(key, everything before it)), key = the setting
 * checkin_middleware_staff_link_key, which the service knows as STAFF_LINK_KEY. The service
 * accepts it only for that organization and until it expires.
 */
class StaffLink {

  public const PREFIX = 'csl1';

  public const PERMISSION = 'open check-in staff report';

  /** The key must be long enough to be a secret; the service holds the same minimum. */
  public const MIN_KEY_LENGTH = SigningKeys::MIN_LENGTH;

  public const MAX_MINUTES = 60;

  public static function mint(int $staffContactId, int $organizationId, int $expiresAt, string $key): string {
    $payload = implode('.', [self::PREFIX, $staffContactId, $organizationId, $expiresAt]);
    $signature = rtrim(strtr(base64_encode(hash_hmac('sha256', $payload, $key, TRUE)), '+/', '-_'), '=');
    return "$payload.$signature";
  }

  public const KEY_SETTING = 'checkin_middleware_staff_link_key';

  /** The configured key, NULL when missing or when it breaks the signing-key rules (SigningKeys). */
  public static function key(): ?string {
    return SigningKeys::usable(self::KEY_SETTING);
  }

  /** Minutes a link works, within 1..MAX_MINUTES whatever the setting says. */
  public static function minutes(): int {
    $minutes = (int) \Civi::settings()->get('checkin_middleware_staff_link_minutes');
    return max(1, min(self::MAX_MINUTES, $minutes ?: 15));
  }

  /**
   * Where the staff page opens the report: the page takes `key` out of the address and keeps it
   * for the browser tab only, as it does with the shared staff key.
   */
  public static function staffPageUrl(string $serviceUrl, int $organizationId, string $token): string {
    return $serviceUrl . '/staff?' . http_build_query(['orgId' => $organizationId, 'key' => $token], '', '&', PHP_QUERY_RFC3986);
  }

}
