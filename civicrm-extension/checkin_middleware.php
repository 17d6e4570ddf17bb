<?php

/**
 * @file
 * Check-in middleware support. Most of it is declared rather than hooked: the upload decoder is
 * an event subscriber and the APIv4 entity is found by the scan-classes mixin, the file route by
 * menu-xml, the job by mgd-php and the setting by setting-php (see info.xml and README.md).
 */

/**
 * Implements hook_civicrm_config().
 *
 * APIv3 finds Job.checkin_cleanup_files (api/v3/Job/CheckinCleanupFiles.php) through PHP's
 * include path, so the extension's folder goes on it, as civix-generated extensions do.
 */
function checkin_middleware_civicrm_config(&$config) {
  if (isset(Civi::$statics[__FUNCTION__])) {
    return;
  }
  Civi::$statics[__FUNCTION__] = TRUE;
  set_include_path(__DIR__ . PATH_SEPARATOR . get_include_path());
}

/**
 * Implements hook_civicrm_permission().
 *
 * Who may open a co-op's check-in staff report from its contact record, without the shared
 * staff key (civicrm/checkin-staff-report).
 */
function checkin_middleware_civicrm_permission(&$permissions) {
  $permissions[\Civi\CheckinMiddleware\StaffLink::PERMISSION] = [
    'label' => ts('CiviCRM: open check-in staff report'),
    'description' => ts('Open an organization\'s check-in staff report from its contact record, without the staff key'),
  ];
}

/**
 * Implements hook_civicrm_summaryActions().
 *
 * "Check-in staff report" on an organization's contact summary, for staff holding the permission.
 */
function checkin_middleware_civicrm_summaryActions(&$actions, $contactID) {
  if (!$contactID || !CRM_Core_Permission::check(\Civi\CheckinMiddleware\StaffLink::PERMISSION)) {
    return;
  }
  $type = CRM_Contact_BAO_Contact::getContactType($contactID);
  if ($type !== 'Organization') {
    return;
  }
  $actions['otherActions']['checkin_staff_report'] = [
    'title' => ts('Check-in staff report'),
    'description' => ts('Open this co-op\'s check-in staff report'),
    'weight' => 20,
    'ref' => 'checkin-staff-report',
    'key' => 'checkin_staff_report',
    // The summary template appends "&cid=<contact id>" to every action's href.
    'href' => CRM_Utils_System::url('civicrm/checkin-staff-report', 'reset=1'),
    'class' => 'no-popup',
    'icon' => 'crm-i fa-clipboard',
    'permissions' => [\Civi\CheckinMiddleware\StaffLink::PERMISSION],
  ];
}
