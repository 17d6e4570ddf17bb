<?php

namespace Civi\CheckinMiddleware;

use Civi\Test\EndToEndInterface;
use Civi\Test\TransactionalInterface;
use PHPUnit\Framework\TestCase;

/**
 * The removal of the service's uploads that nothing references. The files made here are dated
 * years back and the job runs for that age only, so the site's other uploads are never touched.
 *
 * @group e2e
 */
class CleanupTest extends TestCase implements EndToEndInterface, TransactionalInterface {

  /** Older than anything on a test site but the uploads made here. */
  private const YEARS_HOURS = 24 * 365 * 5;

  use UploadFixtures;

  /**
   * An upload of the service, as the decoder stores it, made `$daysAgo` days ago.
   *
   * @return array{id: int, path: string}
   */
  private function upload(int $daysAgo, bool $marked = TRUE): array {
    $row = $this->createFile(
      ['file_name' => 'upload.pdf', 'content' => base64_encode('%PDF-1.4 upload')],
      $marked ? 'base64' : NULL
    );
    $id = (int) $row['id'];
    $path = (string) Uploads::path((string) ($row['uri'] ?? ''));
    \CRM_Core_DAO::executeQuery('UPDATE civicrm_file SET upload_date = NOW() - INTERVAL %1 DAY WHERE id = %2', [
      1 => [$daysAgo, 'Integer'],
      2 => [$id, 'Positive'],
    ]);
    \CRM_Core_DAO::executeQuery('UPDATE `' . Uploads::TABLE . '` SET uploaded_at = UTC_TIMESTAMP() - INTERVAL %1 DAY WHERE file_id = %2', [
      1 => [$daysAgo, 'Integer'],
      2 => [$id, 'Positive'],
    ]);
    return ['id' => $id, 'path' => $path];
  }

  private function exists(int $fileId): bool {
    return (bool) \CRM_Core_DAO::singleValueQuery('SELECT COUNT(*) FROM civicrm_file WHERE id = %1', [1 => [$fileId, 'Positive']]);
  }

  public function testRemovesAnOldUnreferencedUploadWithItsContent(): void {
    $old = $this->upload(365 * 6);
    $this->assertFileExists($old['path']);
    $removed = Cleanup::run(self::YEARS_HOURS);
    $this->assertContains($old['id'], $removed);
    $this->assertFalse($this->exists($old['id']));
    $this->assertFileDoesNotExist($old['path']);
  }

  public function testKeepsAnUploadYoungerThanTheAge(): void {
    $young = $this->upload(365 * 4);
    $this->assertNotContains($young['id'], Cleanup::run(self::YEARS_HOURS));
    $this->assertTrue($this->exists($young['id']));
    $this->assertFileExists($young['path']);
  }

  public function testKeepsAnUploadAFileCustomFieldOrAnEntityReferences(): void {
    $attached = $this->upload(365 * 6);
    \CRM_Core_DAO::executeQuery("INSERT INTO civicrm_entity_file (entity_table, entity_id, file_id) VALUES ('civicrm_contact', 1, %1)", [
      1 => [$attached['id'], 'Positive'],
    ]);
    $this->assertNotContains($attached['id'], Cleanup::run(self::YEARS_HOURS));
    $this->assertTrue($this->exists($attached['id']));
  }

  public function testNeverRemovesAFileTheServiceDidNotUpload(): void {
    $foreign = $this->upload(365 * 6, FALSE);
    $this->assertNotContains($foreign['id'], Cleanup::run(self::YEARS_HOURS));
    $this->assertTrue($this->exists($foreign['id']));
  }

  /**
   * @return array<string, array{float}>
   */
  public static function invalidAges(): array {
    return ['a negative age' => [-1.0], 'not a number' => [NAN], 'infinity' => [INF]];
  }

  /**
   * @dataProvider invalidAges
   */
  public function testRefusesAnAgeThatIsNotAWholeOrFractionalNumberOfHours(float $hours): void {
    $this->expectException(\CRM_Core_Exception::class);
    Cleanup::run($hours);
  }

  public function testReadsItsDefaultAgeFromTheSettingInDays(): void {
    $previous = \Civi::settings()->get(Cleanup::SETTING);
    try {
      \Civi::settings()->set(Cleanup::SETTING, 3);
      $this->assertSame(72.0, Cleanup::configuredAgeHours());
    }
    finally {
      \Civi::settings()->set(Cleanup::SETTING, $previous);
    }
  }

}
