<?php

use Civi\CheckinMiddleware\Uploads;

/**
 * civicrm/checkin-file?id=N: a file's exact bytes for a logged-in user holding "access uploaded
 * files". Unlike core's civicrm/file it needs no signature, so the check-in middleware can link
 * staff to any file (stock 6.x answers HTTP 500 without `fcs`, and 5.81 cannot make signed links
 * through APIv4). Every refusal is a small JSON body with its status, never a CiviCRM page.
 */
class CRM_CheckinMiddleware_Page_File extends CRM_Core_Page {

  /**
   * Types a browser may show in place; anything else downloads, so an uploaded HTML or SVG file
   * can never run as a page of the CiviCRM site.
   */
  private const INLINE_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp'];

  public function run() {
    $id = $_GET['id'] ?? NULL;
    if (!is_string($id) || !preg_match('/^[1-9][0-9]{0,9}$/', $id)) {
      $this->refuse(400, 'BAD_FILE_ID', 'id must be a positive whole number');
    }
    if (!CRM_Core_Session::getLoggedInContactID()) {
      $this->refuse(403, 'NOT_LOGGED_IN', 'Log in to CiviCRM to open this file');
    }
    if (!CRM_Core_Permission::check('access uploaded files')) {
      $this->refuse(403, 'PERMISSION_DENIED', 'Opening files needs the permission "access uploaded files"');
    }
    $file = CRM_Core_DAO::executeQuery(
      // SELECT *: is_public exists only from 6.x on.
      'SELECT * FROM civicrm_file WHERE id = %1',
      [1 => [(int) $id, 'Positive']]
    );
    if (!$file->fetch()) {
      $this->refuse(404, 'FILE_NOT_FOUND', 'No file has this id');
    }
    $path = Uploads::path($file->uri, !empty($file->is_public));
    if ($path === NULL || !is_file($path) || !is_readable($path)) {
      $this->refuse(404, 'FILE_CONTENT_MISSING', 'The file record exists but its content is not on the server');
    }
    $this->send($path, Uploads::displayName((string) $file->uri), (string) $file->mime_type);
  }

  private function send(string $path, string $name, string $mimeType): void {
    $type = preg_match('#^[\w.+-]+/[\w.+-]+$#', $mimeType) ? strtolower($mimeType) : 'application/octet-stream';
    $disposition = in_array($type, self::INLINE_TYPES, TRUE) ? 'inline' : 'attachment';
    $this->discardOutput();
    http_response_code(200);
    header('Content-Type: ' . $type);
    header('Content-Length: ' . filesize($path));
    header('Content-Disposition: ' . self::contentDisposition($disposition, $name));
    header('X-Content-Type-Options: nosniff');
    header('Cache-Control: private, no-store');
    readfile($path);
    CRM_Utils_System::civiExit();
  }

  /**
   * RFC 6266: an ASCII fallback name plus the exact UTF-8 name.
   */
  public static function contentDisposition(string $disposition, string $name): string {
    $ascii = preg_replace('/[^\x20-\x7E]|["\\\\]/', '_', $name);
    return sprintf('%s; filename="%s"; filename*=UTF-8\'\'%s', $disposition, $ascii, rawurlencode($name));
  }

  private function refuse(int $status, string $code, string $message): void {
    $this->discardOutput();
    http_response_code($status);
    header('Content-Type: application/json; charset=utf-8');
    header('Cache-Control: no-store');
    echo json_encode(['statusCode' => $status, 'code' => $code, 'message' => $message]);
    CRM_Utils_System::civiExit();
  }

  private function discardOutput(): void {
    while (ob_get_level() > 0) {
      ob_end_clean();
    }
  }

}
