<?php

/**
 * Installs and removes the extension's one table (sql/auto_install.sql, sql/auto_uninstall.sql);
 * the base class runs those files.
 *
 * It also keeps the roles' permission "open check-in staff report" across a disable and enable
 * (docs/upgrading.md, "The extension"): CiviCRM removes a disabled extension's permissions from
 * every role at its next cache rebuild and gives nothing back when the extension returns. On
 * disable (before that rebuild) the roles holding it are recorded in the setting
 * checkin_middleware_staff_report_roles; on enable and on upgrade they get it back. Standalone
 * roles only: on Drupal, WordPress and Backdrop the roles are the CMS's (grant it there again).
 */
class CRM_CheckinMiddleware_Upgrader extends CRM_Extension_Upgrader_Base {

  public const ROLES_SETTING = 'checkin_middleware_staff_report_roles';

  public function disable(): void {
    $holders = self::rolesHolding(\Civi\CheckinMiddleware\StaffLink::PERMISSION);
    if ($holders !== NULL) {
      \Civi::settings()->set(self::ROLES_SETTING, $holders);
    }
  }

  public function enable(): void {
    self::restoreStaffReportPermission();
  }

  /**
   * 1.2: records who holds the permission now, so that a later disable that is not the
   * extension's own (a failed deploy, a cache rebuild mid-upgrade) still knows whom to give it back.
   */
  public function upgrade_1200(): bool {
    $holders = self::rolesHolding(\Civi\CheckinMiddleware\StaffLink::PERMISSION);
    if ($holders) {
      $recorded = (array) (\Civi::settings()->get(self::ROLES_SETTING) ?? []);
      \Civi::settings()->set(self::ROLES_SETTING, array_values(array_unique(array_merge($recorded, $holders))));
    }
    self::restoreStaffReportPermission();
    return TRUE;
  }

  /**
   * Names of the Standalone roles holding the permission; NULL where roles are not CiviCRM's.
   *
   * @return string[]|null
   */
  public static function rolesHolding(string $permission): ?array {
    if (!\Civi\Api4\Utils\CoreUtil::entityExists('Role')) {
      return NULL;
    }
    $names = [];
    foreach (\Civi\Api4\Role::get(FALSE)->addSelect('name', 'permissions')->execute() as $role) {
      if (in_array($permission, (array) ($role['permissions'] ?? []), TRUE)) {
        $names[] = $role['name'];
      }
    }
    return $names;
  }

  /** Gives the recorded roles the permission again; roles that hold it or no longer exist are left alone. */
  public static function restoreStaffReportPermission(): void {
    $recorded = (array) (\Civi::settings()->get(self::ROLES_SETTING) ?? []);
    if (!$recorded || !\Civi\Api4\Utils\CoreUtil::entityExists('Role')) {
      return;
    }
    $permission = \Civi\CheckinMiddleware\StaffLink::PERMISSION;
    $records = [];
    foreach (\Civi\Api4\Role::get(FALSE)->addSelect('id', 'permissions')->addWhere('name', 'IN', $recorded)->execute() as $role) {
      $permissions = (array) ($role['permissions'] ?? []);
      if (!in_array($permission, $permissions, TRUE)) {
        $records[] = ['id' => $role['id'], 'permissions' => array_merge($permissions, [$permission])];
      }
    }
    if ($records) {
      \Civi\Api4\Role::save(FALSE)->setRecords($records)->execute();
      \Civi::log()->info('checkin_middleware: gave ' . count($records) . ' role(s) back "' . $permission . '"');
    }
  }

  /**
   * 1.1: the upload table keeps the name each upload's bytes were written under, so the cleanup
   * job never deletes a file a row was re-pointed at. Rows of earlier uploads take the name
   * their file row holds now (the best record there is).
   */
  public function upgrade_1100(): bool {
    if (!CRM_Core_BAO_SchemaHandler::checkIfFieldExists('civicrm_checkin_upload', 'uri')) {
      CRM_Core_DAO::executeQuery("ALTER TABLE `civicrm_checkin_upload`
        ADD COLUMN `uri` varchar(255) NULL COMMENT 'The name the extension wrote the bytes under; the cleanup job deletes no other file' AFTER `file_id`");
    }
    CRM_Core_DAO::executeQuery('UPDATE `civicrm_checkin_upload` u JOIN civicrm_file f ON f.id = u.file_id SET u.uri = f.uri WHERE u.uri IS NULL');
    return TRUE;
  }

}
