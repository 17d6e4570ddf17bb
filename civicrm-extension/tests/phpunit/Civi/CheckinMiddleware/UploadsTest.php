<?php

namespace Civi\CheckinMiddleware;

use Civi\Test\EndToEndInterface;
use PHPUnit\Framework\TestCase;

/**
 * The upload helpers every part of the extension shares: strict base64, CiviCRM's file names,
 * and where a stored name may point.
 *
 * @group e2e
 */
class UploadsTest extends TestCase implements EndToEndInterface {

  public function testDecodesStrictBase64ToTheExactBytes(): void {
    $bytes = "%PDF-1.4\n\x00\xff\xfe binary \x80";
    $this->assertSame($bytes, Uploads::decodeBase64(base64_encode($bytes)));
    $this->assertSame('', Uploads::decodeBase64(''));
  }

  /**
   * @return array<string, array{string}>
   */
  public static function notStrictBase64(): array {
    return [
      'missing padding' => ['YWJjZA'],
      'a line break inside' => ["YWJj\nZA=="],
      'spaces inside' => ['YWJj ZA=='],
      'the URL-safe alphabet' => ['-_-_'],
      'three padding characters' => ['YQ==='],
      'padding in the middle' => ['YQ==YWJj'],
      'not base64 at all' => ['hello world!'],
    ];
  }

  /**
   * @dataProvider notStrictBase64
   */
  public function testRefusesAnythingButStrictPaddedBase64(string $text): void {
    $this->assertNull(Uploads::decodeBase64($text));
  }

  public function testNamesFilesAsCiviCrmDoesAndShowsTheNameWithoutItsHash(): void {
    $uri = Uploads::makeUri('Market study 2024.pdf');
    $this->assertSame($uri, basename($uri));
    $this->assertMatchesRegularExpression('/\.pdf$/', $uri);
    $this->assertNotSame($uri, Uploads::makeUri('Market study 2024.pdf'), 'two uploads of one name get two names');
    $this->assertSame(\CRM_Utils_File::cleanFileName($uri), Uploads::displayName($uri));
    $this->assertStringStartsWith('Market_study_2024', Uploads::displayName($uri));
  }

  public function testNeverNamesAnExecutableExtension(): void {
    $uri = Uploads::makeUri('notes.php');
    $this->assertDoesNotMatchRegularExpression('/\.php$/i', $uri);
  }

  /**
   * @return array<string, array{?string}>
   */
  public static function unsafeStoredNames(): array {
    return [
      'no name' => [NULL],
      'an empty name' => [''],
      'the directory itself' => ['.'],
      'its parent' => ['..'],
      'a path' => ['../private/civicrm.settings.php'],
      'a subfolder' => ['sub/file.pdf'],
    ];
  }

  /**
   * @dataProvider unsafeStoredNames
   */
  public function testGivesNoPathForANameThatCouldLeaveTheUploadDirectory(?string $uri): void {
    $this->assertNull(Uploads::path($uri));
  }

  public function testKeepsPrivateFilesInTheCustomFileDirectoryAndPublicOnesInTheImageDirectory(): void {
    $config = \CRM_Core_Config::singleton();
    $this->assertSame(rtrim($config->customFileUploadDir, '/\\') . DIRECTORY_SEPARATOR . 'a_0123.pdf', Uploads::path('a_0123.pdf'));
    $this->assertSame(rtrim($config->imageUploadDir, '/\\') . DIRECTORY_SEPARATOR . 'a_0123.png', Uploads::path('a_0123.png', TRUE));
  }

}
