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
