<?php

use Civi\CheckinMiddleware\ContractVectors;
use Civi\CheckinMiddleware\PrimaryContactFixtures;
use Civi\CheckinMiddleware\StaffLink;
use Civi\Test\EndToEndInterface;
use Civi\Test\TransactionalInterface;
use PHPUnit\Framework\TestCase;

/**
 * civicrm/checkin-staff-report: where it sends a member of staff, with which token. Run inside
 * this process; the redirect is caught at CiviCRM's alterRedirect hook, before the page would end
 * the process. Who may open the page is not this test's subject.
 *
 * @group e2e
 */
class CRM_CheckinMiddleware_Page_StaffReportTest extends TestCase implements EndToEndInterface, TransactionalInterface {

  use ContractVectors;
  use PrimaryContactFixtures;

  private const KEY = 'staff-report-test-key-0123456789-abcdef';

  private array $savedSettings = [];

  private array $savedGet = [];

  protected function setUp(): void {
    parent::setUp();
    $this->savedGet = $_GET;
    $this->setSettings([
      'checkin_middleware_service_url' => 'https://checkin.example.org/',
      'checkin_middleware_staff_link_key' => self::KEY,
      'checkin_middleware_staff_link_minutes' => 20,
    ]);
  }

  protected function tearDown(): void {
    $_GET = $this->savedGet;
    $this->restoreSettings();
    parent::tearDown();
  }

  /** An administrator of the site: the page's own checks, whatever they are, let them through. */
  private function logInAsAdministrator(): int {
    $row = CRM_Core_DAO::executeQuery('SELECT uf_id, contact_id FROM civicrm_uf_match ORDER BY id LIMIT 1')->fetchAll()[0];
    $session = CRM_Core_Session::singleton();
    $session->set('userID', (int) $row['contact_id']);
    $session->set('ufID', (int) $row['uf_id']);
    return (int) $row['contact_id'];
  }

  /** The address the page sends the browser to. */
  private function redirectFor(int $organization): string {
    $_GET['cid'] = (string) $organization;
    $capture = function ($event) {
      throw new RuntimeException('redirect:' . $event->url);
    };
    // Who may open the page is the real-CiviCRM suite's subject (link-permissions.real.spec.ts):
    // here every permission the page asks about is granted.
    $grant = function ($event) {
      $event->granted = TRUE;
    };
    Civi::dispatcher()->addListener('hook_civicrm_alterRedirect', $capture);
    Civi::dispatcher()->addListener('hook_civicrm_permission_check', $grant);
    try {
      (new CRM_CheckinMiddleware_Page_StaffReport())->run();
    }
    catch (RuntimeException $redirect) {
      $this->assertStringStartsWith('redirect:', $redirect->getMessage());
      return substr($redirect->getMessage(), strlen('redirect:'));
    }
    finally {
      Civi::dispatcher()->removeListener('hook_civicrm_alterRedirect', $capture);
      Civi::dispatcher()->removeListener('hook_civicrm_permission_check', $grant);
    }
    $this->fail('the page did not redirect');
  }

  public function testSendsStaffToTheServicesStaffPageWithASignedShortLivedToken(): void {
    $staff = $this->logInAsAdministrator();
    $coop = $this->organization('Staff report co-op');
    $before = time();

    $url = $this->redirectFor($coop);

    $this->assertMatchesRegularExpression("#^https://checkin\\.example\\.org/staff\\?orgId=$coop&key=csl1\\.#", $url);
    parse_str((string) parse_url($url, PHP_URL_QUERY), $query);
    [$prefix, $staffId, $orgId, $expiresAt] = explode('.', $query['key']);
    $this->assertSame([StaffLink::PREFIX, (string) $staff, (string) $coop], [$prefix, $staffId, $orgId]);
    $this->assertGreaterThanOrEqual($before + 20 * 60, (int) $expiresAt);
    $this->assertLessThanOrEqual(time() + 20 * 60, (int) $expiresAt);
    // Spelled as the contract's vectors spell a token (libs/contract/vectors/staff-links.json).
    $this->assertSame($query['key'], StaffLink::mint($staff, $coop, (int) $expiresAt, self::KEY));
    $this->assertSame($url, StaffLink::staffPageUrl('https://checkin.example.org', $coop, $query['key']));
  }

}
