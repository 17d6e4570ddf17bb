<?php

namespace Civi\CheckinMiddleware;

use Civi\API\Event\PrepareEvent;
use Civi\API\Event\RespondEvent;
use Civi\API\Events;
use Civi\Api4\Generic\AbstractAction;
use Civi\Api4\Generic\Result;
use Civi\Core\Service\AutoSubscriber;

/**
 * Takes over the content of the check-in middleware's APIv4 File.create calls.
 *
 * The service sends the file's bytes as base64 `content` and marks the HTTP request with
 * `X-Checkin-Content-Encoding: base64`. Stock CiviCRM 6.x would store the base64 text itself,
 * and 5.81 ignores `content` altogether, so for marked calls `content` is removed before core
 * sees it and the decoded bytes are written here, the same way on every version. Calls without
 * the header are left exactly as they are.
 */
class UploadDecoder extends AutoSubscriber {

  public const HEADER = 'X-Checkin-Content-Encoding';

  /**
   * Decoded bytes of the marked calls under way, by action object, between prepare and respond.
   *
   * @var array<int, string>
   */
  private static array $pending = [];

  public static function getSubscribedEvents(): array {
    return [
      // Before core's own prepare listeners so that nothing else sees the base64 text.
      'civi.api.prepare' => ['onPrepare', Events::W_EARLY],
      'civi.api.respond' => ['onRespond', Events::W_EARLY],
      'civi.api.exception' => ['onException', Events::W_EARLY],
    ];
  }

  /**
   * The header's value for this HTTP request: NULL when absent (CLI, cron, unmarked callers).
   */
  public static function requestedEncoding(): ?string {
    $value = $_SERVER['HTTP_X_CHECKIN_CONTENT_ENCODING'] ?? NULL;
    return is_string($value) ? strtolower(trim($value)) : NULL;
  }

  private static function isFileCreate($request): bool {
    return $request instanceof AbstractAction
      && $request->getEntityName() === 'File'
      && $request->getActionName() === 'create';
  }

  public function onPrepare(PrepareEvent $event): void {
    $request = $event->getApiRequest();
    if (!self::isFileCreate($request)) {
      return;
    }
    $encoding = self::requestedEncoding();
    if ($encoding === NULL) {
      return;
    }
    if ($encoding !== 'base64') {
      throw new \CRM_Core_Exception(self::HEADER . ' must be "base64"');
    }
    $values = $request->getValues();
    if (!empty($values['id'])) {
      // create with an id updates: the decoded bytes would overwrite another file's content.
      throw new \CRM_Core_Exception('A File.create marked with ' . self::HEADER . ' creates a new file; it cannot take an id');
    }
    $content = $values['content'] ?? NULL;
    if (!is_string($content)) {
      throw new \CRM_Core_Exception('A File.create marked with ' . self::HEADER . ' needs the base64 content in values.content');
    }
    $fileName = $values['file_name'] ?? NULL;
    if (!is_string($fileName) || $fileName === '' || $fileName !== basename($fileName) || preg_match(':[/\\\\]:', $fileName)) {
      throw new \CRM_Core_Exception('A File.create marked with ' . self::HEADER . ' needs a plain file_name');
    }
    $bytes = Uploads::decodeBase64($content);
    if ($bytes === NULL) {
      throw new \CRM_Core_Exception('values.content is not valid base64');
    }
    unset($values['content']);
    $request->setValues($values);
    self::$pending[spl_object_id($request)] = $bytes;
  }

  public function onRespond(RespondEvent $event): void {
    $request = $event->getApiRequest();
    if (!self::isFileCreate($request) || !array_key_exists(spl_object_id($request), self::$pending)) {
      return;
    }
    $bytes = self::$pending[spl_object_id($request)];
    unset(self::$pending[spl_object_id($request)]);
    $result = $event->getResponse();
    if (!$result instanceof Result || count($result) !== 1) {
      throw new \CRM_Core_Exception('File.create answered an unexpected result; the upload was not stored');
    }
    $row = $result[0];
    $result[0] = $this->store((int) $row['id'], (string) $request->getValues()['file_name'], $bytes) + $row;
  }

  public function onException($event): void {
    $request = $event->getApiRequest();
    if (is_object($request)) {
      unset(self::$pending[spl_object_id($request)]);
    }
  }

  /**
   * Writes the bytes for the file row core just created and records it as the service's upload.
   * On 6.x core has named the file (uri) from file_name; 5.81 has no such field, so the uri is
   * set here with the same naming scheme.
   *
   * @return array the fields to put into the answer row
   */
  private function store(int $fileId, string $fileName, string $bytes): array {
    try {
      // SELECT *: is_public (6.x only) decides the directory, as it does for core's reads.
      $saved = \CRM_Core_DAO::executeQuery('SELECT * FROM civicrm_file WHERE id = %1', [1 => [$fileId, 'Positive']])->fetchAll()[0] ?? [];
      $uri = $saved['uri'] ?? NULL;
      $uriIsNew = !is_string($uri) || $uri === '';
      if ($uriIsNew) {
        $uri = Uploads::makeUri($fileName);
      }
      $path = Uploads::path($uri, !empty($saved['is_public']));
      if ($path === NULL) {
        throw new \CRM_Core_Exception('File.create stored an unusable file name');
      }
      if (file_put_contents($path, $bytes) !== strlen($bytes)) {
        throw new \CRM_Core_Exception('The upload could not be written to the file upload directory');
      }
      if ($uriIsNew) {
        \CRM_Core_DAO::executeQuery('UPDATE civicrm_file SET uri = %1 WHERE id = %2', [
          1 => [$uri, 'String'],
          2 => [$fileId, 'Positive'],
        ]);
      }
      Uploads::record($fileId);
    }
    catch (\Throwable $e) {
      // Leave nothing behind: a row with no (or undecoded) content is what this extension exists to prevent.
      if (isset($path) && is_string($path) && file_exists($path)) {
        unlink($path);
      }
      \CRM_Core_DAO::executeQuery('DELETE FROM civicrm_file WHERE id = %1', [1 => [$fileId, 'Positive']]);
      throw $e instanceof \CRM_Core_Exception ? $e : new \CRM_Core_Exception('The upload could not be stored');
    }
    return [
      'uri' => $uri,
      'file_name' => Uploads::displayName($uri),
      'checkin_content_decoded' => TRUE,
    ];
  }

}
