<?php

use Civi\CheckinMiddleware\PrimaryContactFixtures;
use Civi\Test\EndToEndInterface;
use Civi\Test\TransactionalInterface;
use PHPUnit\Framework\TestCase;

/**
 * The portfolio's saved searches: what they list (an organization's current stage, last owner
 * check-in and check-ins this quarter) on the site's own custom group, and the link of each row
 * to the staff report. The contacts and check-ins made here are rolled back.
 *
 * @group e2e
 */
class CRM_CheckinMiddleware_PortfolioTest extends TestCase implements EndToEndInterface, TransactionalInterface {

  use PrimaryContactFixtures;

  private function group(): string {
    $group = CRM_CheckinMiddleware_Portfolio::activityGroupName();
    $this->assertNotNull($group, 'the schema installer has made the check-in custom group');
    return $group;
  }

  /**
   * A check-in of the organization: with a stage (an organizer's) or a submission id (an owner's).
   */
  private function checkin(int $organization, string $when, ?string $stageLabel, ?string $submissionId): void {
    $group = $this->group();
    $values = [
      'activity_type_id:name' => CRM_CheckinMiddleware_Portfolio::ACTIVITY_TYPE,
      'source_contact_id' => $organization,
      'target_contact_id' => [$organization],
      'activity_date_time' => $when,
      'subject' => 'Check-in (test)',
    ];
    if ($stageLabel !== NULL) {
      $values["$group.Stage:label"] = $stageLabel;
    }
    if ($submissionId !== NULL) {
      $values["$group.Submission_ID"] = $submissionId;
    }
    \Civi\Api4\Activity::create(FALSE)->setValues($values)->execute();
  }

  private function stageLabels(): array {
    $field = \Civi\Api4\CustomField::get(FALSE)
      ->addSelect('option_group_id')
      ->addWhere('custom_group_id.name', '=', $this->group())
      ->addWhere('name', '=', 'Stage')
      ->execute()->first();
    return \Civi\Api4\OptionValue::get(FALSE)
      ->addSelect('label')
      ->addWhere('option_group_id', '=', $field['option_group_id'])
      ->addOrderBy('weight')
      ->execute()->column('label');
  }

  private function listed(int $organization, bool $onlyWithoutCheckinThisQuarter): array {
    $params = CRM_CheckinMiddleware_Portfolio::apiParams($this->group(), $onlyWithoutCheckinThisQuarter);
    unset($params['version']);
    $params['where'][] = ['id', '=', $organization];
    $params['checkPermissions'] = FALSE;
    return (array) civicrm_api4('Contact', 'get', $params);
  }

  public function testListsAnOrganizationsNewestStageAndItsOwnerCheckinsThisQuarter(): void {
    [$first, $second] = array_slice($this->stageLabels(), 0, 2);
    $coop = $this->organization('Portfolio co-op');
    $this->checkin($coop, date('Y-m-d H:i:s', strtotime('-2 years')), $first, NULL);
    $this->checkin($coop, date('Y-m-d H:i:s', strtotime('-1 year')), $second, NULL);
    $this->checkin($coop, date('Y-m-d H:i:s'), NULL, 'portfolio-test-submission');

    $rows = $this->listed($coop, FALSE);
    $this->assertCount(1, $rows);
    $this->assertSame([$second], (array) $rows[0]['current_stage']);
    $this->assertSame(1, (int) $rows[0]['checkins_this_quarter']);
    $this->assertNotEmpty($rows[0]['last_owner_checkin']);
    // It checked in this quarter: not on the list of those that have not.
    $this->assertSame([], $this->listed($coop, TRUE));
  }

  public function testLeavesOutAnOrganizationWithoutACheckin(): void {
    $this->assertSame([], $this->listed($this->organization('No check-in co-op'), FALSE));
  }

  public function testEachRowOpensTheStaffReportOfItsOrganization(): void {
    $links = array_values(array_filter(
      CRM_CheckinMiddleware_Portfolio::displaySettings()['columns'],
      fn(array $column) => $column['type'] === 'links'
    ));
    $this->assertSame('civicrm/checkin-staff-report?reset=1&cid=[id]', $links[0]['links'][0]['path']);
  }

  public function testTheSiteHoldsBothSavedSearchesWithTheirDisplays(): void {
    if (!CRM_CheckinMiddleware_Portfolio::searchKitActive()) {
      $this->markTestSkipped('SearchKit is not enabled on this site');
    }
    // Declared once the schema exists, at the next cache clear (managed/SavedSearch_CheckinPortfolio.mgd.php).
    CRM_Core_ManagedEntities::singleton()->reconcile(['checkin_middleware']);
    foreach (array_keys(CRM_CheckinMiddleware_Portfolio::SEARCHES) as $name) {
      $display = \Civi\Api4\SearchDisplay::get(FALSE)
        ->addWhere('name', '=', $name)
        ->addWhere('saved_search_id.name', '=', $name)
        ->execute()->first();
      $this->assertNotNull($display, "the saved search and display $name");
    }
  }

}
