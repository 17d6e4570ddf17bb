<?php

namespace Civi\Api4\Action\CheckinMiddleware;

use Civi\Api4\Generic\AbstractAction;
use Civi\Api4\Generic\Result;

/**
 * One row: this extension's version, CiviCRM's version, the time zone CiviCRM uses for local
 * date-times (activity_date_time has no offset on the wire), the site's default currency and
 * language (the service formats amounts with them; reading them through APIv4 Setting.get would
 * need administer CiviCRM, which the service's API user lacks), and which of the permissions the
 * service relies on the calling user holds (the service's start-up check names each one missing;
 * CiviCRM answers reads it filters by ACL with fewer rows, never with a refusal).
 */
class Info extends AbstractAction {

  /** The permissions of docs/civicrm-setup.md, step 5, plus the optional one. */
  private const PERMISSIONS = [
    'authenticate with api key',
    'access CiviCRM',
    'edit all contacts',
    'view all contacts',
    'access all custom data',
    'view all activities',
    'delete activities',
    'access uploaded files',
    'administer CiviCRM',
    // The administrator's role: the service warns when its key holds it.
    'all CiviCRM permissions and ACLs',
  ];

  public function _run(Result $result) {
    $result[] = [
      'extension_version' => self::version(),
      'civicrm_version' => \CRM_Utils_System::version(),
      // How CiviCRM itself decides: the CMS's zone for the calling user (on Standalone the
      // user's own time zone when set, else PHP's default zone).
      'timezone' => \CRM_Core_Config::singleton()->userSystem->getTimeZoneString(),
      'default_currency' => (string) \Civi::settings()->get('defaultCurrency'),
      'locale' => (string) \Civi::settings()->get('lcMessages'),
      'permissions' => array_combine(
        self::PERMISSIONS,
        array_map(fn($permission) => (bool) \CRM_Core_Permission::check($permission), self::PERMISSIONS)
      ),
      'staff_permission_roles' => self::rolesHolding(\Civi\CheckinMiddleware\StaffLink::PERMISSION),
    ];
  }

  /** This extension's version as its info.xml gives it; NULL when it gives none. */
  private static function version(): ?string {
    $info = \CRM_Extension_System::singleton()->getMapper()->keyToInfo('checkin_middleware');
    $version = trim((string) ($info->version ?? ''));
    return $version === '' ? NULL : $version;
  }

  /**
   * The names of the roles that list the permission themselves (the administrator's "all CiviCRM
   * permissions and ACLs" aside): on Standalone, where CiviCRM keeps the roles; NULL on a CMS whose
   * roles it cannot list, so the service does not guess.
   */
  private static function rolesHolding(string $permission): ?array {
    if (!class_exists('\Civi\Api4\Role')) {
      return NULL;
    }
    try {
      $roles = \Civi\Api4\Role::get(FALSE)->addSelect('name', 'permissions')->execute();
    }
    catch (\Throwable $e) {
      return NULL;
    }
    $names = [];
    foreach ($roles as $role) {
      if (in_array($permission, (array) ($role['permissions'] ?? []), TRUE)) {
        $names[] = (string) $role['name'];
      }
    }
    return $names;
  }

}
