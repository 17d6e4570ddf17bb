<?php

namespace Civi\CheckinMiddleware;

use Civi\Test\EndToEndInterface;
use Civi\Test\TransactionalInterface;
use PHPUnit\Framework\TestCase;

/**
 * An owner's personal links as the service reads them (libs/contract/vectors/personal-links.json)
 * and the co-ops a person is the 'Primary Contact' of. The contacts made here are rolled back.
 *
 * @group e2e
 */
class PersonalLinksTest extends TestCase implements EndToEndInterface, TransactionalInterface {

  use ContractVectors;
  use PrimaryContactFixtures;

  private array $savedSettings = [];

  protected function tearDown(): void {
    $this->restoreSettings();
    parent::tearDown();
  }

  public static function linkVectors(): array {
    return self::named(self::vectors('personal-links')['links']);
  }

  /**
   * @dataProvider linkVectors
   */
  public function testFormatsTheLinksTheServiceReads(array $vector): void {
    $this->setSettings([
      'checkin_middleware_service_url' => $vector['serviceUrl'],
      'checkin_middleware_link_hours' => 24,
    ]);
    $links = PersonalLinks::forContact($vector['contactId'], $vector['organizationIds']);
    foreach (['form_url' => 'formUrl', 'report_url' => 'reportUrl'] as $field => $expected) {
      // The checksum is the site's own (hash_timestamp_lifetime, here 24 hours), stood in for by the
      // vector's placeholder.
      $this->assertMatchesRegularExpression('/[?&]cs=([0-9a-f]{32}_[0-9]+_24)$/', $links[$field]);
      preg_match('/[?&]cs=([^&]+)$/', $links[$field], $checksum);
      $this->assertSame($vector[$expected], str_replace('cs=' . $checksum[1], 'cs={checksum}', $links[$field]));
    }
  }

  public function testMakesNoLinkWithoutTheServicesAddress(): void {
    $this->setSettings(['checkin_middleware_service_url' => '  ']);
    $this->assertNull(PersonalLinks::serviceUrl());
    $this->assertNull(PersonalLinks::forContact(1, [2]));
  }

  public function testListsTheCoopsAPersonIsThePrimaryContactOf(): void {
    $person = $this->individual('Pat');
    $first = $this->organization('First co-op');
    $second = $this->organization('Second co-op');
    $former = $this->organization('Former co-op');
    $this->primaryContact($person, $second);
    $this->primaryContact($person, $first);
    $this->primaryContact($person, $former, FALSE);
    $nobody = $this->individual('Sam');

    $this->assertSame(
      [$person => [min($first, $second), max($first, $second)]],
      PersonalLinks::primaryContactOrganizations([$person, $nobody, $person])
    );
    $this->assertSame([], PersonalLinks::primaryContactOrganizations([]));
  }

}
