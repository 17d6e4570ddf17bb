<?php

/**
 * Installs and removes the extension's one table (sql/auto_install.sql, sql/auto_uninstall.sql);
 * the base class runs those files.
 */
class CRM_CheckinMiddleware_Upgrader extends CRM_Extension_Upgrader_Base {
}
