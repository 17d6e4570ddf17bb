<?php

/**
 * Installs and removes the extension's one table (sql/auto_install.sql, sql/auto_uninstall.sql);
 * the base class runs those files.
 */
class CRM_CheckinMiddleware_Upgrader extends CRM_Extension_Upgrader_Base {

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
