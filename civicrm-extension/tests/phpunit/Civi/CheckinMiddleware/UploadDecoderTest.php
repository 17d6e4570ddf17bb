<?php

namespace Civi\CheckinMiddleware;

use Civi\Api4\File;
use Civi\Test\EndToEndInterface;
use Civi\Test\TransactionalInterface;
use PHPUnit\Framework\TestCase;

/**
 * The decoder of the service's marked APIv4 File.create calls, through the API as the service's
 * calls reach it (the marker is the request header the service sends). Database rows are rolled
 * back after each test; the files written are removed.
 *
 * @group e2e
 */
class UploadDecoderTest extends TestCase implements EndToEndInterface, TransactionalInterface {

  use UploadFixtures;

  private function recorded(int $fileId): bool {
    return (bool) \CRM_Core_DAO::singleValueQuery('SELECT COUNT(*) FROM `' . Uploads::TABLE . '` WHERE file_id = %1', [1 => [$fileId, 'Positive']]);
  }

  public function testReadsTheMarkerFromTheRequestHeaderCaseAndSpaceInsensitively(): void {
    unset($_SERVER['HTTP_X_CHECKIN_CONTENT_ENCODING']);
    $this->assertNull(UploadDecoder::requestedEncoding());
    $_SERVER['HTTP_X_CHECKIN_CONTENT_ENCODING'] = ' Base64 ';
    $this->assertSame('base64', UploadDecoder::requestedEncoding());
  }

  public function testWritesTheDecodedBytesUnderACiviCrmNameAndRecordsTheUpload(): void {
    $bytes = "%PDF-1.4\n\x00\x01\xfe\xff end";
    $row = $this->createFile(['file_name' => 'Business plan.pdf', 'content' => base64_encode($bytes)]);
    $this->assertTrue($row['checkin_content_decoded']);
    $this->assertSame($row['uri'], basename((string) $row['uri']));
    $this->assertSame(Uploads::displayName((string) $row['uri']), $row['file_name']);
    $this->assertStringStartsWith('Business_plan', (string) $row['file_name']);
    $this->assertSame($bytes, file_get_contents((string) Uploads::path((string) $row['uri'])));
    $this->assertTrue($this->recorded((int) $row['id']));
    $stored = File::get(FALSE)->addWhere('id', '=', $row['id'])->addSelect('uri', 'mime_type')->execute()->single();
    $this->assertSame($row['uri'], $stored['uri']);
    $this->assertSame('application/pdf', $stored['mime_type']);
  }

  public function testLeavesUnmarkedCallsToCore(): void {
    $row = $this->createFile(['file_name' => 'plain.txt', 'mime_type' => 'text/plain', 'content' => base64_encode('abc')], NULL);
    $this->assertArrayNotHasKey('checkin_content_decoded', $row);
    $this->assertFalse($this->recorded((int) $row['id']));
  }

  /**
   * @return array<string, array{array, string}>
   */
  public static function refusedCalls(): array {
    return [
      'an encoding other than base64' => [['file_name' => 'a.pdf', 'content' => 'YWJj'], 'gzip'],
      'no content' => [['file_name' => 'a.pdf'], 'base64'],
      'content that is not strict base64' => [['file_name' => 'a.pdf', 'content' => 'YWJj ZA=='], 'base64'],
      'no file name' => [['content' => 'YWJj'], 'base64'],
      'a file name with a path' => [['file_name' => '../a.pdf', 'content' => 'YWJj'], 'base64'],
      'a file name with a backslash' => [['file_name' => 'dir\\a.pdf', 'content' => 'YWJj'], 'base64'],
    ];
  }

  /**
   * @dataProvider refusedCalls
   */
  public function testRefusesAMarkedCallItCannotStoreSafely(array $values, string $marker): void {
    $before = (int) \CRM_Core_DAO::singleValueQuery('SELECT COUNT(*) FROM civicrm_file');
    try {
      $this->createFile($values, $marker);
      $this->fail('File.create was accepted');
    }
    catch (\CRM_Core_Exception $e) {
      $this->assertSame($before, (int) \CRM_Core_DAO::singleValueQuery('SELECT COUNT(*) FROM civicrm_file'), 'no file row is left behind');
    }
  }

  public function testRefusesToOverwriteAnExistingFileThroughAnId(): void {
    $first = $this->createFile(['file_name' => 'first.pdf', 'content' => base64_encode('first')]);
    $this->expectException(\CRM_Core_Exception::class);
    try {
      $this->createFile(['id' => $first['id'], 'file_name' => 'second.pdf', 'content' => base64_encode('second')]);
    }
    finally {
      $this->assertSame('first', file_get_contents((string) Uploads::path((string) $first['uri'])));
    }
  }

}
