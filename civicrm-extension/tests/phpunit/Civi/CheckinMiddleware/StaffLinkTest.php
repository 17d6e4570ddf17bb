<?php

namespace Civi\CheckinMiddleware;

use Civi\Test\EndToEndInterface;
use PHPUnit\Framework\TestCase;

/**
 * The staff link token's spelling and the staff page address (the service reads both:
 * libs/contract/vectors/staff-links.json), and the settings that shape them.
 *
 * @group e2e
 */
class StaffLinkTest extends TestCase implements EndToEndInterface {

  use ContractVectors;

  private array $savedSettings = [];

  protected function tearDown(): void {
    $this->restoreSettings();
    parent::tearDown();
  }

  public static function tokenVectors(): array {
    return self::named(self::vectors('staff-links')['tokens']);
  }

  public static function staffPageVectors(): array {
    return self::named(self::vectors('staff-links')['staffPages']);
  }

  /**
   * @dataProvider tokenVectors
   */
  public function testMintsTheTokenTheServiceVerifies(array $vector): void {
    $this->assertSame(
      $vector['token'],
      StaffLink::mint($vector['staffContactId'], $vector['orgId'], $vector['expiresAt'], $vector['key'])
    );
  }

  /**
   * @dataProvider staffPageVectors
   */
  public function testAddressesTheServicesStaffPage(array $vector): void {
    $this->assertSame($vector['url'], StaffLink::staffPageUrl($vector['serviceUrl'], $vector['orgId'], $vector['token']));
  }

  public function testAKeyShorterThanTheMinimumIsNoKey(): void {
    // A generated-looking key: the signing-key rules (SigningKeys) also refuse a low-variety one.
    $key = substr('q8Vn3LxR7tKp2WzJ9cYb5HmF4dGs6QaEu1', 0, StaffLink::MIN_KEY_LENGTH);
    $this->setSettings(['checkin_middleware_staff_link_key' => substr($key, 0, -1)]);
    $this->assertNull(StaffLink::key());
    $this->setSettings(['checkin_middleware_staff_link_key' => $key]);
    $this->assertSame($key, StaffLink::key());
  }

  /**
   * @return array<string, array{int, int}>
   */
  public static function lifetimes(): array {
    return [
      'unset: the default' => [0, 15],
      'within the range' => [30, 30],
      'above the cap' => [600, StaffLink::MAX_MINUTES],
      'below one minute' => [-5, 1],
    ];
  }

  /**
   * @dataProvider lifetimes
   */
  public function testALinkWorksBetweenOneMinuteAndTheCap(int $setting, int $minutes): void {
    $this->setSettings(['checkin_middleware_staff_link_minutes' => $setting]);
    $this->assertSame($minutes, StaffLink::minutes());
  }

}
