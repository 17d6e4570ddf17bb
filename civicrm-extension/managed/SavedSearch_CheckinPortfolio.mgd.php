<?php

/**
 * The organizers' portfolio (docs/organizer-guide.md, "The portfolio view"): every organization
 * with a check-in, its current stage, its last owner check-in and its owner check-ins this
 * quarter, each row linking to the staff report; and the same list cut to the co-ops that have
 * not checked in this quarter.
 *
 * The rules are the service's (docs/product-rules.md, "Current stage"): the current stage is the
 * Stage of the newest check-in that has one (none: Inquiry); an owner check-in is one the form
 * recorded, which always carries a Submission ID. The activity custom group's name is the site's
 * own (the schema installer reports it as CRM_ACTIVITY_CUSTOM_GROUP), so it is looked up by the
 * product's field names; until the schema exists nothing is declared, and the next cache clear
 * (System.flush) after the schema installer declares it.
 */

use CRM_CheckinMiddleware_Portfolio as Portfolio;

if (!Portfolio::searchKitActive()) {
  return [];
}
$group = Portfolio::activityGroupName();
if ($group === NULL) {
  return [];
}

$entities = [];
foreach (Portfolio::SEARCHES as $name => $search) {
  $entities[] = [
    'name' => "SavedSearch_$name",
    'entity' => 'SavedSearch',
    'cleanup' => 'unused',
    'update' => 'unmodified',
    'params' => [
      'version' => 4,
      'values' => [
        'name' => $name,
        'label' => $search['label'],
        'description' => $search['description'],
        'api_entity' => 'Contact',
        'api_params' => Portfolio::apiParams($group, $search['only_without_checkin_this_quarter']),
      ],
      'match' => ['name'],
    ],
  ];
  $entities[] = [
    'name' => "SearchDisplay_$name",
    'entity' => 'SearchDisplay',
    'cleanup' => 'unused',
    'update' => 'unmodified',
    'params' => [
      'version' => 4,
      'values' => [
        'name' => $name,
        'label' => $search['label'],
        'saved_search_id.name' => $name,
        'type' => 'table',
        'settings' => Portfolio::displaySettings(),
        'acl_bypass' => FALSE,
      ],
      'match' => ['saved_search_id', 'name'],
    ],
  ];
}
return $entities;
