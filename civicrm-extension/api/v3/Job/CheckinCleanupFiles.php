<?php

use Civi\CheckinMiddleware\Cleanup;

/**
 * Job.checkin_cleanup_files: removes the check-in middleware's uploads that nothing references.
 */
function _civicrm_api3_job_checkin_cleanup_files_spec(&$spec) {
  $spec['age_hours'] = [
    'title' => 'Minimum age in hours',
    'description' => 'Only uploads at least this old are removed. Default: the setting checkin_middleware_unattached_file_days × 24.',
    'type' => CRM_Utils_Type::T_FLOAT,
  ];
}

/**
 * @return array the ids removed as values; `removed` is their count
 */
function civicrm_api3_job_checkin_cleanup_files($params) {
  $age = $params['age_hours'] ?? NULL;
  if ($age === NULL || $age === '') {
    $ageHours = Cleanup::configuredAgeHours();
  }
  elseif (is_numeric($age)) {
    $ageHours = (float) $age;
  }
  else {
    throw new CRM_Core_Exception('age_hours must be a number of hours, 0 or more');
  }
  $removed = Cleanup::run($ageHours);
  // Passed by reference on 6.x, so it must be a variable.
  $dao = NULL;
  return civicrm_api3_create_success($removed, $params, 'Job', 'checkin_cleanup_files', $dao, [
    'removed' => count($removed),
    'age_hours' => $ageHours,
  ]);
}
