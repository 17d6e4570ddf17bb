<?php

namespace Civi\CheckinMiddleware;

use Civi\Test\EndToEndInterface;
use Civi\Test\TransactionalInterface;
use Civi\Token\TokenProcessor;
use PHPUnit\Framework\TestCase;

/**
 * {checkin.form_url} and {checkin.report_url} through CiviCRM's own token processor, as a
 * mailing or a reminder merges them. The contacts made here are rolled back.
 *
 * @group e2e
 */
class TokensTest extends TestCase implements EndToEndInterface, TransactionalInterface {

  use ContractVectors;
  use PrimaryContactFixtures;

  private array $savedSettings = [];

  protected function setUp(): void {
    parent::setUp();
    $this->setSettings([
      'checkin_middleware_service_url' => 'https://checkin.example.org/',
      'checkin_middleware_link_hours' => 24,
    ]);
  }

  protected function tearDown(): void {
    $this->restoreSettings();
    parent::tearDown();
  }

  /**
   * @return array<string, string> message name => text, for one row per contact
   */
  private function render(string $text, array $contactIds, array $schema = ['contactId']): array {
    $processor = new TokenProcessor(\Civi::dispatcher(), [
      'controller' => __CLASS__,
      'schema' => $schema,
      'smarty' => FALSE,
    ]);
    $processor->addMessage('body', $text, 'text/plain');
    foreach ($contactIds as $contactId) {
      $processor->addRow(['contactId' => $contactId]);
    }
    $processor->evaluate();
    $rendered = [];
    foreach ($processor->getRows() as $row) {
      $rendered[] = $row->render('body');
    }
    return $rendered;
  }

  public function testOffersBothTokensWhereMessagesHaveAContact(): void {
    $processor = new TokenProcessor(\Civi::dispatcher(), ['controller' => __CLASS__, 'schema' => ['contactId']]);
    $tokens = $processor->listTokens();
    foreach (Tokens::tokenLabels() as $field => $label) {
      $this->assertSame($label, $tokens['{' . Tokens::ENTITY . ".$field}"] ?? NULL);
    }
  }

  public function testMergesEachRecipientsOwnLinks(): void {
    $person = $this->individual('Pat');
    $coop = $this->organization('One co-op');
    $this->primaryContact($person, $coop);
    $other = $this->individual('Sam');

    [$forPerson, $forOther] = $this->render("{checkin.form_url}\n{checkin.report_url}", [$person, $other]);

    [$form, $report] = explode("\n", $forPerson);
    $this->assertMatchesRegularExpression(
      "#^https://checkin\\.example\\.org/\\?contactId=$person&orgId=$coop&cid=$person&cs=[^&\\s]+$#",
      $form
    );
    $this->assertSame(str_replace('.org/?', '.org/report?', $form), $report);
    // A person who is nobody's primary contact gets no link (docs/organizer-guide.md).
    $this->assertSame("\n", $forOther);
  }

  public function testMergesNothingWithoutTheServicesAddress(): void {
    $this->setSettings(['checkin_middleware_service_url' => '']);
    $person = $this->individual('Pat');
    // An empty value, never a link that cannot work.
    $this->assertSame(['[]'], $this->render('[{checkin.form_url}]', [$person]));
  }

}
