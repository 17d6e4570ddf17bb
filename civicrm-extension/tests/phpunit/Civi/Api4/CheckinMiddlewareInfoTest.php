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
      ['extension_version', 'civicrm_version', 'timezone', 'default_currency', 'locale', 'permissions', 'staff_permission_roles'],
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
    // Standalone keeps its roles: the names of those listing the staff permission.
    $this->assertIsArray($info['staff_permission_roles']);
    $this->assertContainsOnly('string', $info['staff_permission_roles']);
  }

  public function testVerifiesKeysBySignatureWithoutSeeingThem(): void {
    $settings = ['checkin_middleware_file_link_key', 'checkin_middleware_staff_link_key'];
    $saved = array_combine($settings, array_map(fn($name) => \Civi::settings()->get($name), $settings));
    try {
      $fileKey = str_repeat('f', 32);
      \Civi::settings()->set('checkin_middleware_file_link_key', $fileKey);
      \Civi::settings()->set('checkin_middleware_staff_link_key', '');
      $message = "checkin-middleware key probe\n" . bin2hex(random_bytes(8));
      $answer = CheckinMiddleware::verifyKeys(FALSE)
        ->setMessage($message)
        ->setSignatures([
          'FILE_LINK_KEY' => hash_hmac('sha256', $message, $fileKey),
          'STAFF_LINK_KEY' => hash_hmac('sha256', $message, str_repeat('s', 32)),
        ])
        ->execute()->single();
      $this->assertSame(['FILE_LINK_KEY' => 'match', 'STAFF_LINK_KEY' => 'unset'], $answer);
      $wrong = CheckinMiddleware::verifyKeys(FALSE)
        ->setMessage($message)
        ->setSignatures(['FILE_LINK_KEY' => hash_hmac('sha256', $message, str_repeat('g', 32))])
        ->execute()->single();
      $this->assertSame(['FILE_LINK_KEY' => 'differs'], $wrong);
    }
    finally {
      foreach ($saved as $name => $value) {
        \Civi::settings()->set($name, $value);
      }
    }
  }

  public function testRefusesToVerifyAnythingButAProbe(): void {
    $this->expectException(\CRM_Core_Exception::class);
    CheckinMiddleware::verifyKeys(FALSE)
      ->setMessage('1.1700000000')
      ->setSignatures(['FILE_LINK_KEY' => str_repeat('0', 64)])
      ->execute();
  }

  public function testDescribesItsFieldsForApiExplorers(): void {
    $names = CheckinMiddleware::getFields(FALSE)->execute()->column('name');
    $this->assertSame(['extension_version', 'civicrm_version', 'timezone'], $names);
  }

  public function testLetsAnyApiUserAskButNotAnAnonymousOne(): void {
    $permissions = CheckinMiddleware::permissions();
    $this->assertSame([['access CiviCRM', 'access AJAX API']], $permissions['info']);
    $this->assertSame([['access CiviCRM', 'access AJAX API']], $permissions['verifyKeys']);
    $this->assertSame(['administer CiviCRM'], $permissions['default']);
  }

}
