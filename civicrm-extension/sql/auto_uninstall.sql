DROP TABLE IF EXISTS `civicrm_checkin_upload`;
