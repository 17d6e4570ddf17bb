<?php

namespace Civi\CheckinMiddleware;

/**
 * Removes the service's uploads that nothing references once they are old enough: owners upload
 * before they submit, and an upload whose form was never submitted would otherwise stay forever.
 */
class Cleanup {

  public const SETTING = 'checkin_middleware_unattached_file_days';

  /**
   * Deletes only what the extension wrote: the file row goes when it is an old, unattached
   * upload of the service; the bytes deleted are those written under the name recorded at upload,
   * and only when no file row uses that name any more. A row re-pointed elsewhere (APIv3
   * File.create with id and uri) never takes the other file's bytes with it.
   *
   * @param float $ageHours only uploads at least this old are removed
   * @return int[] ids of the files removed
   */
  public static function run(float $ageHours): array {
    if (!is_finite($ageHours) || $ageHours < 0) {
      throw new \CRM_Core_Exception('age_hours must be a number of hours, 0 or more');
    }
    $unreferenced = self::unreferencedCondition();
    $ageSeconds = (int) round($ageHours * 3600);
    $candidates = \CRM_Core_DAO::executeQuery(
      'SELECT u.file_id, u.uri AS recorded_uri, f.* FROM `' . Uploads::TABLE . '` u
        JOIN civicrm_file f ON f.id = u.file_id
        WHERE u.uploaded_at <= UTC_TIMESTAMP() - INTERVAL %1 SECOND AND ' . $unreferenced . '
        ORDER BY u.file_id',
      [1 => [$ageSeconds, 'Integer']]
    )->fetchAll();
    // f.* rather than f.is_public: that column exists only from 6.x on.
    $removed = [];
    foreach ($candidates as $file) {
      $fileId = (int) $file['file_id'];
      // The conditions are checked again in the DELETE itself: an owner may attach the file
      // between the listing and this statement.
      $delete = \CRM_Core_DAO::executeQuery(
        'DELETE f FROM civicrm_file f
          WHERE f.id = %1 AND EXISTS (SELECT 1 FROM `' . Uploads::TABLE . '` u WHERE u.file_id = f.id) AND ' . $unreferenced,
        [1 => [$fileId, 'Positive']]
      );
      if ($delete->affectedRows() !== 1) {
        continue;
      }
      $removed[] = $fileId;
      $recorded = $file['recorded_uri'] ?? NULL;
      if ($file['uri'] !== $recorded) {
        // Re-pointed since the upload: the file it names now is someone else's and stays.
        \Civi::log()->warning('checkin_middleware: file {id} pointed at {uri}, not at the name its upload was written under; that file was left alone', [
          'id' => $fileId,
          'uri' => $file['uri'],
        ]);
      }
      if (!is_string($recorded) || $recorded === '') {
        continue;
      }
      $stillUsed = \CRM_Core_DAO::singleValueQuery('SELECT COUNT(*) FROM civicrm_file WHERE uri = %1', [1 => [$recorded, 'String']]);
      if ((int) $stillUsed > 0) {
        continue;
      }
      $path = Uploads::path($recorded, !empty($file['is_public']));
      if ($path !== NULL && is_file($path) && !unlink($path)) {
        \Civi::log()->warning('checkin_middleware: removed file {id} from the database but could not delete {path}', [
          'id' => $fileId,
          'path' => $path,
        ]);
      }
    }
    return $removed;
  }

  /**
   * The default age from the setting, in hours.
   */
  public static function configuredAgeHours(): float {
    $days = \Civi::settings()->get(self::SETTING);
    if (!is_numeric($days) || (float) $days < 0) {
      throw new \CRM_Core_Exception(self::SETTING . ' must be a number of days, 0 or more');
    }
    return (float) $days * 24;
  }

  /**
   * SQL that holds for a file `f` referenced by no entity_file row and no File custom field value.
   * Inactive fields count too: their stored values still point at files.
   */
  private static function unreferencedCondition(): string {
    $conditions = ['NOT EXISTS (SELECT 1 FROM civicrm_entity_file ef WHERE ef.file_id = f.id)'];
    $fields = \CRM_Core_DAO::executeQuery(
      "SELECT g.table_name, c.column_name FROM civicrm_custom_field c
        JOIN civicrm_custom_group g ON g.id = c.custom_group_id
        WHERE c.data_type = 'File'"
    )->fetchAll();
    foreach ($fields as $field) {
      $table = (string) $field['table_name'];
      $column = (string) $field['column_name'];
      if (!preg_match('/^\w+$/', $table) || !preg_match('/^\w+$/', $column)) {
        // Never guess: a reference that cannot be checked means nothing may be removed.
        throw new \CRM_Core_Exception("Cannot check the File field $table.$column; no file was removed");
      }
      if (!\CRM_Core_DAO::checkTableExists($table)) {
        continue;
      }
      $conditions[] = "NOT EXISTS (SELECT 1 FROM `$table` t WHERE t.`$column` = f.id)";
    }
    return '(' . implode(' AND ', $conditions) . ')';
  }

}
