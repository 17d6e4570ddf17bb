<?php

namespace Civi\Api4;

use Civi\Test\EndToEndInterface;
use PHPUnit\Framework\TestCase;

/**
 * CheckinMiddleware.info: what the service reads at start-up to check the site it talks to.
 *
 * @group e2e
 */
class CheckinMiddlewareInfoTest extends TestCase implements EndToEndInterface {

  public function testAnswersOneRowWithTheExtensionsVersionCiviCrmsVersionAndAZone(): void {
    $rows = CheckinMiddleware::info(FALSE)->execute();
    $this->assertCount(1, $rows);
    $info = $rows->single();
    $this->assertSame(
      ['extension_version', 'civicrm_version', 'timezone', 'default_currency', 'locale', 'permissions'],
      array_keys($info)
    );
    $declared = \CRM_Extension_System::singleton()->getMapper()->keyToInfo('checkin_middleware');
    $this->assertSame((string) $declared->version, $info['extension_version']);
    $this->assertSame(\CRM_Utils_System::version(), $info['civicrm_version']);
    $this->assertContains($info['timezone'], \DateTimeZone::listIdentifiers(\DateTimeZone::ALL_WITH_BC));
    $this->assertSame(\Civi::settings()->get('defaultCurrency'), $info['default_currency']);
    $this->assertSame(\Civi::settings()->get('lcMessages'), $info['locale']);
    // The caller here is the test's bootstrap user; every answer is a yes or a no.
    $this->assertContainsOnly('bool', $info['permissions']);
  }

  public function testDescribesItsFieldsForApiExplorers(): void {
    $names = CheckinMiddleware::getFields(FALSE)->execute()->column('name');
    $this->assertSame(['extension_version', 'civicrm_version', 'timezone'], $names);
  }

  public function testLetsAnyApiUserAskButNotAnAnonymousOne(): void {
    $permissions = CheckinMiddleware::permissions();
    $this->assertSame([['access CiviCRM', 'access AJAX API']], $permissions['info']);
    $this->assertSame(['administer CiviCRM'], $permissions['default']);
  }

}
