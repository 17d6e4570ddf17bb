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

  /**
   * Records a file row as the service's upload, with the name its bytes were written under: the
   * cleanup job deletes those bytes only while the row still points there.
   */
  public static function record(int $fileId, string $uri): void {
    \CRM_Core_DAO::executeQuery(
      'INSERT INTO `' . self::TABLE . '` (file_id, uri, uploaded_at) VALUES (%1, %2, UTC_TIMESTAMP())',
      [1 => [$fileId, 'Positive'], 2 => [$uri, 'String']]
    );
  }

  /**
   * A name a caller may give an upload: no folder, no control character, and not a dot-name
   * (`.htaccess`, `..`), which web servers treat as configuration or hide.
   */
  public static function isPlainFileName(string $fileName): bool {
    return $fileName !== ''
      && strlen($fileName) <= 255
      && $fileName === basename($fileName)
      && !preg_match(':[/\\\\\x00-\x1f\x7f]:', $fileName)
      && $fileName[0] !== '.';
  }

  /**
   * Creates an empty file under a fresh name (CiviCRM's scheme, random hash) in the private
   * upload folder, failing rather than opening a file that exists.
   *
   * @return array{0: string, 1: string} the uri and the absolute path
   */
  public static function createFreshFile(string $fileName): array {
    for ($attempt = 0; $attempt < 5; $attempt++) {
      $uri = self::makeUri($fileName);
      $path = self::path($uri);
      if ($path === NULL || $uri[0] === '.') {
        throw new \CRM_Core_Exception('The file name cannot be stored');
      }
      // 'x': create, and fail if the name exists (no overwrite, no following a planted link).
      $handle = @fopen($path, 'x');
      if ($handle !== FALSE) {
        fclose($handle);
        return [$uri, $path];
      }
    }
    throw new \CRM_Core_Exception('No fresh file name could be created in the file upload directory');
  }

}
