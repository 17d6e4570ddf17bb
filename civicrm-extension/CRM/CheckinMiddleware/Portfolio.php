<?php

/**
 * What the portfolio's saved searches are made of (managed/SavedSearch_CheckinPortfolio.mgd.php).
 */
class CRM_CheckinMiddleware_Portfolio {

  public const ACTIVITY_TYPE = 'Check-in (organizing)';

  public const SEARCHES = [
    'Checkin_portfolio' => [
      'label' => 'Check-in portfolio',
      'description' => 'Every organization with a check-in: current stage, last owner check-in, owner check-ins this quarter.',
      'only_without_checkin_this_quarter' => FALSE,
    ],
    'Checkin_portfolio_no_checkin_this_quarter' => [
      'label' => 'Check-in portfolio: no check-in this quarter',
      'description' => 'Organizations with a check-in history whose owners have not checked in this quarter.',
      'only_without_checkin_this_quarter' => TRUE,
    ],
  ];

  public static function searchKitActive(): bool {
    return CRM_Extension_System::singleton()->getMapper()->isActiveModule('search_kit');
  }

  /**
   * The site's name of the custom group holding the check-in's Stage and Submission ID, NULL
   * while the schema has not been created.
   */
  public static function activityGroupName(): ?string {
    $name = CRM_Core_DAO::singleValueQuery(
      "SELECT g.name FROM civicrm_custom_group g
        INNER JOIN civicrm_custom_field stage ON stage.custom_group_id = g.id AND stage.name = 'Stage'
        INNER JOIN civicrm_custom_field submission ON submission.custom_group_id = g.id AND submission.name = 'Submission_ID'
        WHERE g.extends = 'Activity' AND g.is_active = 1
        ORDER BY g.id LIMIT 1"
    );
    return $name ? (string) $name : NULL;
  }

  /**
   * Check-ins targeting the organization, joined under `$alias`, with extra conditions.
   */
  private static function checkinJoin(string $alias, string $type, array $conditions = []): array {
    return array_merge(
      ["Activity AS $alias", $type, 'ActivityContact',
        ['id', '=', "$alias.contact_id"],
        ["$alias.record_type_id:name", '=', "'Activity Targets'"],
        ["$alias.activity_type_id:name", '=', "'" . self::ACTIVITY_TYPE . "'"],
        ["$alias.is_deleted", '=', FALSE],
      ],
      $conditions
    );
  }

  public static function apiParams(string $group, bool $onlyWithoutCheckinThisQuarter): array {
    $params = [
      'version' => 4,
      'select' => [
        'id',
        'display_name',
        "GROUP_CONCAT(DISTINCT stage_checkin.$group.Stage:label) AS current_stage",
        'MAX(owner_checkin.activity_date_time) AS last_owner_checkin',
        'COUNT(DISTINCT quarter_checkin.id) AS checkins_this_quarter',
      ],
      'orderBy' => ['display_name' => 'ASC'],
      'where' => [
        ['contact_type:name', '=', 'Organization'],
        ['is_deleted', '=', FALSE],
        // The stage check-in joined below is the newest stage-bearing one: none newer exists.
        ['newer_stage_checkin.id', 'IS NULL'],
      ],
      'groupBy' => ['id'],
      'join' => [
        // Only organizations with a check-in history.
        self::checkinJoin('any_checkin', 'INNER'),
        self::checkinJoin('owner_checkin', 'LEFT', [["owner_checkin.$group.Submission_ID", 'IS NOT EMPTY']]),
        self::checkinJoin('quarter_checkin', 'LEFT', [
          ["quarter_checkin.$group.Submission_ID", 'IS NOT EMPTY'],
          ['quarter_checkin.activity_date_time', '=', "'this.quarter'"],
        ]),
        self::checkinJoin('stage_checkin', 'LEFT', [["stage_checkin.$group.Stage", 'IS NOT EMPTY']]),
        self::checkinJoin('newer_stage_checkin', 'LEFT', [
          ["newer_stage_checkin.$group.Stage", 'IS NOT EMPTY'],
          ['newer_stage_checkin.activity_date_time', '>', 'stage_checkin.activity_date_time'],
        ]),
      ],
      'having' => [],
    ];
    if ($onlyWithoutCheckinThisQuarter) {
      $params['having'][] = ['checkins_this_quarter', '=', 0];
    }
    return $params;
  }

  public static function displaySettings(): array {
    return [
      'actions' => FALSE,
      'limit' => 50,
      'classes' => ['table', 'table-striped'],
      'pager' => ['show_count' => TRUE, 'expose_limit' => TRUE],
      'sort' => [['display_name', 'ASC']],
      'columns' => [
        [
          'type' => 'field',
          'key' => 'display_name',
          'label' => 'Organization',
          'sortable' => TRUE,
          'link' => ['path' => 'civicrm/contact/view?reset=1&cid=[id]', 'target' => ''],
        ],
        [
          'type' => 'field',
          'key' => 'current_stage',
          'label' => 'Current stage',
          'sortable' => TRUE,
          'empty_value' => 'Inquiry',
        ],
        [
          'type' => 'field',
          'key' => 'last_owner_checkin',
          'label' => 'Last owner check-in',
          'sortable' => TRUE,
          'empty_value' => 'None yet',
        ],
        [
          'type' => 'field',
          'key' => 'checkins_this_quarter',
          'label' => 'Check-ins this quarter',
          'sortable' => TRUE,
        ],
        [
          'type' => 'links',
          'key' => 'id',
          'label' => '',
          'links' => [
            [
              'path' => 'civicrm/checkin-staff-report?reset=1&cid=[id]',
              'text' => 'Staff report',
              'icon' => 'fa-clipboard',
              'style' => 'default',
              'target' => '_blank',
            ],
          ],
        ],
      ],
    ];
  }

}
