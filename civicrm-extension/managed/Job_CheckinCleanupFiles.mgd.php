<?php

return [
  [
    'name' => 'Job_checkin_cleanup_files',
    'entity' => 'Job',
    'cleanup' => 'always',
    'update' => 'unmodified',
    'params' => [
      'version' => 4,
      'values' => [
        'name' => 'Remove unattached check-in uploads',
        'description' => 'Deletes files the check-in middleware uploaded that no custom field or entity references, once older than the setting checkin_middleware_unattached_file_days (or the age_hours parameter).',
        'run_frequency' => 'Daily',
        'api_entity' => 'Job',
        'api_action' => 'checkin_cleanup_files',
        'parameters' => '',
        'is_active' => TRUE,
      ],
      'match' => ['name'],
    ],
  ],
];
