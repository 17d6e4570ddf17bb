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

  /** The values the service's File.create sends (backend/src/app/crm/file-create-form.ts). */
  public const ACCEPTED_VALUES = ['file_name', 'mime_type', 'content'];

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
    // Only what the service sends: a caller may not choose where the bytes go (uri), which row
    // they replace (id), or anything core would act on (is_public, move_file, ...).
    $unexpected = array_diff(array_keys($values), self::ACCEPTED_VALUES);
    if ($unexpected) {
      sort($unexpected);
      throw new \CRM_Core_Exception('A File.create marked with ' . self::HEADER . ' takes only ' . implode(', ', self::ACCEPTED_VALUES) . '; refused: ' . implode(', ', $unexpected));
    }
    if (!empty($request->getChain())) {
      throw new \CRM_Core_Exception('A File.create marked with ' . self::HEADER . ' cannot chain other calls');
    }
    $content = $values['content'] ?? NULL;
    if (!is_string($content)) {
      throw new \CRM_Core_Exception('A File.create marked with ' . self::HEADER . ' needs the base64 content in values.content');
    }
    $fileName = $values['file_name'] ?? NULL;
    if (!is_string($fileName) || !Uploads::isPlainFileName($fileName)) {
      throw new \CRM_Core_Exception('A File.create marked with ' . self::HEADER . ' needs a plain file_name (no folder, not starting with a dot)');
    }
    $mimeType = $values['mime_type'] ?? NULL;
    if (!is_string($mimeType) || !preg_match('#^[\w.+-]+/[\w.+-]+$#', $mimeType)) {
      throw new \CRM_Core_Exception('A File.create marked with ' . self::HEADER . ' needs a mime_type like application/pdf');
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
   * Writes the bytes for the file row core just created, under a name made here and created
   * exclusively: whatever uri core (6.x) or anything else put on the row, the bytes never land in
   * an existing file. The row then points at that name, and the name is recorded as this
   * upload's own (the cleanup job deletes no other).
   *
   * @return array the fields to put into the answer row
   */
  private function store(int $fileId, string $fileName, string $bytes): array {
    $path = NULL;
    try {
      [$uri, $path] = Uploads::createFreshFile($fileName);
      if (file_put_contents($path, $bytes) !== strlen($bytes)) {
        throw new \CRM_Core_Exception('The upload could not be written to the file upload directory');
      }
      // is_public = 0 where the column exists (6.x): the bytes are in the private upload folder.
      $hasIsPublic = array_key_exists('is_public', \CRM_Core_DAO::executeQuery('SELECT * FROM civicrm_file WHERE id = %1', [1 => [$fileId, 'Positive']])->fetchAll()[0] ?? []);
      \CRM_Core_DAO::executeQuery('UPDATE civicrm_file SET uri = %1' . ($hasIsPublic ? ', is_public = 0' : '') . ' WHERE id = %2', [
        1 => [$uri, 'String'],
        2 => [$fileId, 'Positive'],
      ]);
      Uploads::record($fileId, $uri);
    }
    catch (\Throwable $e) {
      // Leave nothing behind: a row with no (or undecoded) content is what this extension exists to prevent.
      if (is_string($path) && file_exists($path)) {
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
