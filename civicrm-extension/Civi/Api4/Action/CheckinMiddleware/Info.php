<?php

namespace Civi\Api4\Action\CheckinMiddleware;

use Civi\Api4\Generic\AbstractAction;
use Civi\Api4\Generic\Result;

/**
 * One row: this extension's version, CiviCRM's version and the time zone CiviCRM uses for
 * local date-times (activity_date_time has no offset on the wire).
 */
class Info extends AbstractAction {

  public function _run(Result $result) {
    $info = \CRM_Extension_System::singleton()->getMapper()->keyToInfo('checkin_middleware');
    $result[] = [
      'extension_version' => (string) $info->version,
      'civicrm_version' => \CRM_Utils_System::version(),
      // How CiviCRM itself decides: the CMS's zone for the calling user (on Standalone the
      // user's own time zone when set, else PHP's default zone).
      'timezone' => \CRM_Core_Config::singleton()->userSystem->getTimeZoneString(),
    ];
  }

}
