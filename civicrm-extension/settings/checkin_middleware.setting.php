<?php

return [
  'checkin_middleware_unattached_file_days' => [
    'name' => 'checkin_middleware_unattached_file_days',
    'type' => 'Integer',
    'html_type' => 'number',
    'default' => 2,
    'add' => '1.0',
    'title' => 'Check-in uploads: days before an unattached one is removed',
    'is_domain' => 1,
    'is_contact' => 0,
    'description' => 'The "Remove unattached check-in uploads" scheduled job deletes files the check-in middleware uploaded that are still attached to nothing after this many days.',
    'help_text' => 'Owners upload a file before they submit the form; keep at least a day so that a slow owner does not lose an upload.',
  ],
  'checkin_middleware_file_link_key' => [
    'name' => 'checkin_middleware_file_link_key',
    'type' => 'String',
    'html_type' => 'password',
    'default' => '',
    'add' => '1.0',
    'title' => 'Check-in file links: signing key',
    'is_domain' => 1,
    'is_contact' => 0,
    'description' => 'The key the check-in middleware signs staff file links with (its FILE_LINK_KEY setting), at least 32 characters. Empty: the file route serves nothing.',
    'help_text' => 'Generate it once (e.g. openssl rand -base64 32) and set the same value in the service.',
  ],
];
