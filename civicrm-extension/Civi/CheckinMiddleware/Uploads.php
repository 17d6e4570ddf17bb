<?php

namespace Civi\CheckinMiddleware;

/**
 * Where the service's uploads live and how they are recorded: shared by the decoder, the file
 * route and the cleanup job.
 */
class Uploads {

  public const TABLE = 'civicrm_checkin_upload';

  private const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

  /**
   * Strict base64: the standard alphabet, padded to a multiple of 4, no whitespace. PHP's own
   * strict mode still skips whitespace and accepts missing padding, which would let a truncated
   * upload through as a shorter file.
   *
   * @return string|null the bytes, or NULL when $text is not strict base64
   */
  public static function decodeBase64(string $text): ?string {
    $length = strlen($text);
    if ($length % 4 !== 0) {
      return NULL;
    }
    $body = rtrim($text, '=');
    if ($length - strlen($body) > 2 || strspn($body, self::BASE64_ALPHABET) !== strlen($body)) {
      return NULL;
    }
    $bytes = base64_decode($text, TRUE);
    return $bytes === FALSE ? NULL : $bytes;
  }

  /**
   * The name a file is stored under: CiviCRM's own scheme (name, random hash, safe extension),
   * so that the name CiviCRM shows (the stored name without its hash) is the same whether core or
   * this extension wrote the file.
   */
  public static function makeUri(string $fileName): string {
    return \CRM_Utils_File::makeFileName($fileName);
  }

  /**
   * The name CiviCRM shows for a stored file (APIv4 File.get's file_name on 6.x).
   */
  public static function displayName(string $uri): string {
    return \CRM_Utils_File::cleanFileName($uri);
  }

  /**
   * Absolute path of a file's content (public files live in the image directory, as core keeps
   * them). NULL when the uri could escape its directory: rows written by other code are not trusted.
   */
  public static function path(?string $uri, bool $isPublic = FALSE): ?string {
    if ($uri === NULL || $uri === '' || $uri !== basename($uri) || $uri === '.' || $uri === '..') {
      return NULL;
    }
    $config = \CRM_Core_Config::singleton();
    $dir = $isPublic ? $config->imageUploadDir : $config->customFileUploadDir;
    return rtrim($dir, '/\\') . DIRECTORY_SEPARATOR . $uri;
  }

  public static function record(int $fileId): void {
    \CRM_Core_DAO::executeQuery(
      'INSERT INTO `' . self::TABLE . '` (file_id, uploaded_at) VALUES (%1, UTC_TIMESTAMP())
        ON DUPLICATE KEY UPDATE uploaded_at = uploaded_at',
      [1 => [$fileId, 'Positive']]
    );
  }

}
