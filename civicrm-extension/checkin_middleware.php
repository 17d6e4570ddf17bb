<?php

/**
 * @file
 * Check-in middleware support. Everything is declared rather than hooked: the upload decoder is
 * an event subscriber and the APIv4 entity is found by the scan-classes mixin, the file route by
 * menu-xml, the job by mgd-php and the setting by setting-php (see info.xml and README.md).
 */
