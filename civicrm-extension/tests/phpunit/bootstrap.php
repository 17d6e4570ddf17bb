<?php

/**
 * Boots the CiviCRM site the extension is installed on, the way its own entry points do.
 *
 * civix's bootstrap asks civicrm-buildkit's `cv` for the boot code; a Standalone site boots from
 * its civicrm.standalone.php without it. CIVICRM_UF is then defined, so Civi\Test's listener
 * runs the tests against this site (EndToEndInterface) and rolls back the ones that are
 * TransactionalInterface after each test.
 *
 * Environment: CIVICRM_SITE (the site root holding civicrm.standalone.php and ext/) and
 * CIVICRM_URL (the site's address: the file route is tested over HTTP).
 */

ini_set('memory_limit', '512M');
error_reporting(E_ALL);

$site = getenv('CIVICRM_SITE');
$url = getenv('CIVICRM_URL');
if (!$site || !is_file($site . '/civicrm.standalone.php') || !$url) {
  fwrite(STDERR, "tests/phpunit: set CIVICRM_SITE (a Standalone site root) and CIVICRM_URL\n");
  exit(2);
}
// The site's settings derive its base URL from the request's host.
$_SERVER['HTTP_HOST'] = parse_url($url, PHP_URL_HOST) . (parse_url($url, PHP_URL_PORT) ? ':' . parse_url($url, PHP_URL_PORT) : '');
$_SERVER['SERVER_NAME'] = parse_url($url, PHP_URL_HOST);
$_SERVER['REQUEST_URI'] = '/';
require $site . '/civicrm.standalone.php';
CRM_Core_Config::singleton();

if (!CRM_Extension_System::singleton()->getMapper()->isActiveModule('checkin_middleware')) {
  fwrite(STDERR, "tests/phpunit: the checkin_middleware extension is not enabled on $site\n");
  exit(2);
}

// The test classes live here, not in the installed copy of the extension.
spl_autoload_register(function (string $class): void {
  $file = __DIR__ . '/' . str_replace(['\\', '_'], '/', $class) . '.php';
  if (is_file($file)) {
    require_once $file;
  }
});
