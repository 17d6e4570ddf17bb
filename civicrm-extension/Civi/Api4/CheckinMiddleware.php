<?php

namespace Civi\Api4;

/**
 * What the check-in middleware asks about the site it talks to.
 *
 * @searchable none
 * @package Civi\Api4
 */
class CheckinMiddleware extends Generic\AbstractEntity {

  /**
   * @param bool $checkPermissions
   * @return Action\CheckinMiddleware\Info
   */
  public static function info($checkPermissions = TRUE) {
    return (new Action\CheckinMiddleware\Info(__CLASS__, __FUNCTION__))
      ->setCheckPermissions($checkPermissions);
  }

  /**
   * @param bool $checkPermissions
   * @return Action\CheckinMiddleware\VerifyKeys
   */
  public static function verifyKeys($checkPermissions = TRUE) {
    return (new Action\CheckinMiddleware\VerifyKeys(__CLASS__, __FUNCTION__))
      ->setCheckPermissions($checkPermissions);
  }

  public static function getFields($checkPermissions = TRUE) {
    return (new Generic\BasicGetFieldsAction(__CLASS__, __FUNCTION__, function () {
      return [
        ['name' => 'extension_version', 'data_type' => 'String', 'description' => 'Version of this extension'],
        ['name' => 'civicrm_version', 'data_type' => 'String', 'description' => 'CiviCRM version'],
        ['name' => 'timezone', 'data_type' => 'String', 'description' => 'IANA time zone CiviCRM reads and writes local date-times in for the calling user'],
      ];
    }))->setCheckPermissions($checkPermissions);
  }

  /**
   * Nothing here is secret, so any user who may call the API at all may ask: "access CiviCRM" or
   * "access AJAX API" (the nested array means either).
   */
  public static function permissions() {
    return [
      'meta' => [['access CiviCRM', 'access AJAX API']],
      'default' => ['administer CiviCRM'],
      'info' => [['access CiviCRM', 'access AJAX API']],
      // Answers only whether a signature of a probe message verifies: no key, nothing a link can use.
      'verifyKeys' => [['access CiviCRM', 'access AJAX API']],
    ];
  }

}
