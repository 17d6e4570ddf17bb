<?php

namespace Civi\Api4\Action\CheckinMiddleware;

use Civi\Api4\Generic\AbstractAction;
use Civi\Api4\Generic\Result;

/**
 * Whether the service's link keys are this extension's, without either side sending a key
 * (README.md, "Checking the link keys"): the service signs a fresh message with each key it holds
 * (HMAC-SHA256, hex) and asks; the answer per key is `match`, `differs`, or `unset` (the setting
 * is empty or shorter than 32 characters, so the extension refuses every link of that kind).
 * The message must start with the probe prefix, so no signature asked about can open a file or
 * a staff report.
 *
 * @method $this setMessage(string $message)
 * @method $this setSignatures(array $signatures)
 */
class VerifyKeys extends AbstractAction {

  public const PROBE_PREFIX = "checkin-middleware key probe\n";

  /** The service's setting names and the extension's settings holding the same keys. */
  public const KEY_SETTINGS = [
    'FILE_LINK_KEY' => 'checkin_middleware_file_link_key',
    'STAFF_LINK_KEY' => 'checkin_middleware_staff_link_key',
  ];

  private const MIN_KEY_LENGTH = 32;

  /**
   * @var string
   * @required
   */
  protected $message;

  /**
   * Hex HMAC-SHA256 of the message, by the service's setting name.
   *
   * @var array
   * @required
   */
  protected $signatures = [];

  public function _run(Result $result) {
    if (strpos((string) $this->message, self::PROBE_PREFIX) !== 0) {
      throw new \CRM_Core_Exception('The message is not a key probe.');
    }
    $answer = [];
    foreach ($this->signatures as $name => $signature) {
      if (!isset(self::KEY_SETTINGS[$name])) {
        continue;
      }
      $key = (string) \Civi::settings()->get(self::KEY_SETTINGS[$name]);
      if (strlen($key) < self::MIN_KEY_LENGTH) {
        $answer[$name] = 'unset';
        continue;
      }
      $expected = hash_hmac('sha256', $this->message, $key);
      $answer[$name] = hash_equals($expected, (string) $signature) ? 'match' : 'differs';
    }
    $result[] = $answer;
  }

}
