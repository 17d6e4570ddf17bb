<?php

use Civi\CheckinMiddleware\Uploads;

/**
 * civicrm/checkin-file?id=N&expires=T&signature=S: a check-in file's exact bytes, for staff
 * following a link of the check-in middleware's staff report.
 *
 * Ids are sequential and "access uploaded files" is held by every account on some CMS sites, so
 * the route serves a file only when all of these hold (README, "Staff file links"):
 * - the link was signed by the service: HMAC-SHA256 of "checkin-file:<id>:<expires>" with the
 *   key both hold (the setting checkin_middleware_file_link_key, FILE_LINK_KEY in the service),
 *   and it has not expired;
 * - the visitor is logged in and holds "access uploaded files";
 * - the file is held by a File field of a custom group on an activity or an organization (the
 *   check-in groups), and the visitor may see a contact owning it (CiviCRM's own contact
 *   permission check: the organization, or a target of the activity).
 * Every refusal is a small JSON body with its status, never a CiviCRM page.
 */
class CRM_CheckinMiddleware_Page_File extends CRM_Core_Page {

  public const KEY_SETTING = 'checkin_middleware_file_link_key';

  public const PREVIOUS_KEY_SETTING = 'checkin_middleware_file_link_key_previous';

  public const PREVIOUS_UNTIL_SETTING = 'checkin_middleware_file_link_key_previous_until';

  /**
   * Types a browser may show in place; anything else downloads, so an uploaded HTML or SVG file
   * can never run as a page of the CiviCRM site.
   */
  private const INLINE_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp'];

  public function run() {
    $id = $_GET['id'] ?? NULL;
    // \z, not $: PCRE's $ also matches before a final newline, and "3\n" read as 3 would let one
    // signed link answer under many addresses.
    if (!is_string($id) || !preg_match('/^[1-9][0-9]{0,9}\z/', $id)) {
      $this->refuse(400, 'BAD_FILE_ID', 'id must be a positive whole number');
    }
    $this->checkSignature((int) $id, $_GET['expires'] ?? NULL, $_GET['signature'] ?? NULL);
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
    $owners = self::owningContacts((int) $id);
    if (!$owners) {
      $this->refuse(404, 'FILE_NOT_FOUND', 'This file belongs to no check-in or organization');
    }
    $allowed = array_filter($owners, fn(int $contactId) => CRM_Contact_BAO_Contact_Permission::allow($contactId, CRM_Core_Permission::VIEW));
    if (!$allowed) {
      $this->refuse(403, 'CONTACT_NOT_ALLOWED', 'You may not see the contact this file belongs to');
    }
    $path = Uploads::path($file->uri, !empty($file->is_public));
    if ($path === NULL || !is_file($path) || !is_readable($path)) {
      $this->refuse(404, 'FILE_CONTENT_MISSING', 'The file record exists but its content is not on the server');
    }
    $this->send($path, Uploads::displayName((string) $file->uri), (string) $file->mime_type);
  }

  /**
   * The message the service signs (backend/src/app/staff-report/file-link-signature.ts).
   */
  public static function signedMessage(int $fileId, int $expires): string {
    return "checkin-file:$fileId:$expires";
  }

  private function checkSignature(int $fileId, $expires, $signature): void {
    $key = (string) (\Civi::settings()->get(self::KEY_SETTING) ?? '');
    if (strlen($key) < 32) {
      $this->refuse(503, 'LINK_KEY_NOT_SET', 'File links are switched off: an administrator must set ' . self::KEY_SETTING . ' (the service\'s FILE_LINK_KEY)');
    }
    if (!is_string($expires) || !preg_match('/^[0-9]{1,12}$/', $expires) || !is_string($signature) || !preg_match('/^[0-9a-f]{64}$/', $signature)) {
      $this->refuse(403, 'LINK_NOT_SIGNED', 'Open files through the links of the staff report');
    }
    $keys = array_merge([$key], self::previousKeys());
    $signed = FALSE;
    foreach ($keys as $candidate) {
      $signed = $signed || hash_equals(hash_hmac('sha256', self::signedMessage($fileId, (int) $expires), $candidate), $signature);
    }
    if (!$signed) {
      $this->refuse(403, 'LINK_NOT_SIGNED', 'Open files through the links of the staff report');
    }
    if ((int) $expires < time()) {
      $this->refuse(403, 'LINK_EXPIRED', 'This link has expired: open the staff report again');
    }
  }

  /**
   * While the key is rotated (docs/rotating-secrets.md): the key it replaced
   * (checkin_middleware_file_link_key_previous), accepted until the instant in
   * checkin_middleware_file_link_key_previous_until and never after it; none without that instant.
   *
   * @return string[]
   */
  public static function previousKeys(?int $now = NULL): array {
    $previous = (string) (\Civi::settings()->get(self::PREVIOUS_KEY_SETTING) ?? '');
    $until = strtotime((string) (\Civi::settings()->get(self::PREVIOUS_UNTIL_SETTING) ?? ''));
    if (strlen($previous) < 32 || $until === FALSE || ($now ?? time()) >= $until) {
      return [];
    }
    return [$previous];
  }

  /**
   * Contacts owning the file through a File custom field: the organization itself, or the
   * targets of the activity holding it.
   *
   * @return int[]
   */
  public static function owningContacts(int $fileId): array {
    $fields = CRM_Core_DAO::executeQuery(
      "SELECT g.table_name, c.column_name, g.extends FROM civicrm_custom_field c
        JOIN civicrm_custom_group g ON g.id = c.custom_group_id
        WHERE c.data_type = 'File' AND g.extends IN ('Activity', 'Organization')"
    )->fetchAll();
    $targets = (int) CRM_Core_PseudoConstant::getKey('CRM_Activity_BAO_ActivityContact', 'record_type_id', 'Activity Targets');
    $owners = [];
    foreach ($fields as $field) {
      $table = (string) $field['table_name'];
      $column = (string) $field['column_name'];
      if (!preg_match('/^\w+$/', $table) || !preg_match('/^\w+$/', $column) || !CRM_Core_DAO::checkTableExists($table)) {
        continue;
      }
      $sql = $field['extends'] === 'Activity'
        ? "SELECT ac.contact_id FROM `$table` t JOIN civicrm_activity_contact ac ON ac.activity_id = t.entity_id AND ac.record_type_id = %2 WHERE t.`$column` = %1"
        : "SELECT t.entity_id AS contact_id FROM `$table` t WHERE t.`$column` = %1";
      $rows = CRM_Core_DAO::executeQuery($sql, [1 => [$fileId, 'Positive'], 2 => [$targets, 'Integer']])->fetchAll();
      foreach ($rows as $row) {
        $owners[] = (int) $row['contact_id'];
      }
    }
    return array_values(array_unique($owners));
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
