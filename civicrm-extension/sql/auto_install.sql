-- One row per file the check-in middleware uploaded (a File.create call carrying the
-- X-Checkin-Content-Encoding header). The cleanup job only ever considers files listed here.
-- The foreign key removes the row when CiviCRM deletes the file by any other route.
CREATE TABLE IF NOT EXISTS `civicrm_checkin_upload` (
  `file_id` int unsigned NOT NULL COMMENT 'FK to civicrm_file',
  `uri` varchar(255) NULL COMMENT 'The name the extension wrote the bytes under; the cleanup job deletes no other file',
  `uploaded_at` datetime NOT NULL COMMENT 'When the service uploaded it, UTC (the session time zone follows the acting user)',
  PRIMARY KEY (`file_id`),
  KEY `index_uploaded_at` (`uploaded_at`),
  CONSTRAINT `FK_civicrm_checkin_upload_file_id` FOREIGN KEY (`file_id`) REFERENCES `civicrm_file` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
