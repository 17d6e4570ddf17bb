<?php

use Civi\CheckinMiddleware\ContractVectors;
use Civi\Test\EndToEndInterface;
use PHPUnit\Framework\TestCase;

/**
 * The staff file route, civicrm/checkin-file. Its refusals end the request, so they are checked
 * over HTTP against the site (CIVICRM_URL); the header it builds is checked directly.
 *
 * @group e2e
 */
class CRM_CheckinMiddleware_Page_FileTest extends TestCase implements EndToEndInterface {

  use ContractVectors;

  private array $savedSettings = [];

  protected function tearDown(): void {
    $this->restoreSettings();
    parent::tearDown();
  }

  /**
   * @return array{status: int, type: string, body: string}
   */
  private function get(string $query): array {
    $context = stream_context_create(['http' => ['ignore_errors' => TRUE, 'follow_location' => 0, 'timeout' => 60]]);
    $body = file_get_contents(rtrim((string) getenv('CIVICRM_URL'), '/') . '/civicrm/checkin-file?' . $query, FALSE, $context);
    $headers = $http_response_header ?? [];
    preg_match('#^HTTP/\S+ (\d{3})#', $headers[0] ?? '', $status);
    $type = '';
    foreach ($headers as $header) {
      if (stripos($header, 'Content-Type:') === 0) {
        $type = trim(substr($header, 13));
      }
    }
    return ['status' => (int) ($status[1] ?? 0), 'type' => $type, 'body' => (string) $body];
  }

  /**
   * A file of the site when it has one (the route must refuse before it looks the id up, so any
   * well-formed id will do; a real one proves that no content leaks).
   */
  private function someFileId(): int {
    return max(1, (int) CRM_Core_DAO::singleValueQuery('SELECT MIN(id) FROM civicrm_file'));
  }

  public function testRefusesAnAnonymousCallerWithAJsonErrorNotTheFile(): void {
    $answer = $this->get('id=' . $this->someFileId());
    $this->assertContains($answer['status'], [401, 403]);
    $this->assertStringStartsWith('application/json', $answer['type']);
    $error = json_decode($answer['body'], TRUE);
    $this->assertSame($answer['status'], $error['statusCode']);
    $this->assertIsString($error['code']);
    $this->assertIsString($error['message']);
  }

  /**
   * @return array<string, array{string}>
   */
  public static function malformedIds(): array {
    return [
      'no id' => [''],
      'a word' => ['id=abc'],
      'zero' => ['id=0'],
      'a negative number' => ['id=-1'],
      'an array' => ['id[]=1'],
    ];
  }

  /**
   * @dataProvider malformedIds
   */
  public function testNeverServesAFileForAMalformedIdAndAnswersJson(string $query): void {
    $answer = $this->get($query);
    $this->assertGreaterThanOrEqual(400, $answer['status']);
    $this->assertLessThan(500, $answer['status']);
    $this->assertStringStartsWith('application/json', $answer['type']);
  }

  public function testNamesTheFileInAsciiAndInExactUtf8(): void {
    $this->assertSame(
      "inline; filename=\"Plan d___affaires _v2_.pdf\"; filename*=UTF-8''Plan%20d%E2%80%99affaires%20%22v2%22.pdf",
      CRM_CheckinMiddleware_Page_File::contentDisposition('inline', 'Plan d’affaires "v2".pdf')
    );
  }

  public static function signatureVectors(): array {
    return self::named(self::vectors('file-links')['signatures']);
  }

  /**
   * The service's signature (libs/contract/vectors/file-links.json) passes the route's check: the
   * past expiry is then the refusal, not the signature; one character changed fails the check.
   *
   * @dataProvider signatureVectors
   */
  public function testChecksTheSignatureTheServiceMakes(array $vector): void {
    $this->assertSame($vector['message'], CRM_CheckinMiddleware_Page_File::signedMessage($vector['fileId'], $vector['expires']));
    if ($vector['expires'] > time()) {
      $this->markTestSkipped('the route is checked with links that have expired');
    }
    $this->setSettings([CRM_CheckinMiddleware_Page_File::KEY_SETTING => $vector['key']]);
    $query = "id={$vector['fileId']}&expires={$vector['expires']}&signature=";
    $this->assertSame('LINK_EXPIRED', json_decode($this->get($query . $vector['signature'])['body'], TRUE)['code']);
    $tampered = substr($vector['signature'], 0, -1) . ($vector['signature'][-1] === '0' ? '1' : '0');
    $this->assertSame('LINK_NOT_SIGNED', json_decode($this->get($query . $tampered)['body'], TRUE)['code']);
  }

}
