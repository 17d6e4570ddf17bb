<?php

namespace Civi\CheckinMiddleware;

use Civi\Core\Service\AutoSubscriber;
use Civi\Token\Event\TokenRegisterEvent;
use Civi\Token\Event\TokenValueEvent;

/**
 * {checkin.form_url} and {checkin.report_url}: each recipient's own check-in links, merged by
 * every sender that uses CiviCRM's token processor (CiviMail mailings, scheduled reminders,
 * single emails, PDF letters). The service's address and the links' lifetime are the settings
 * checkin_middleware_service_url and checkin_middleware_link_hours (README.md, "Tokens").
 */
class Tokens extends AutoSubscriber {

  public const ENTITY = 'checkin';

  public static function getSubscribedEvents(): array {
    return [
      'civi.token.list' => 'registerTokens',
      'civi.token.eval' => 'evaluateTokens',
    ];
  }

  /**
   * @return array<string, string> token field => label shown in the token pickers
   */
  public static function tokenLabels(): array {
    return [
      'form_url' => ts('Check-in: personal form link'),
      'report_url' => ts('Check-in: personal report link'),
    ];
  }

  public function registerTokens(TokenRegisterEvent $event): void {
    if (!in_array('contactId', $event->getTokenProcessor()->context['schema'] ?? [], TRUE)) {
      // Without a contact per row there is nobody to make a link for.
      return;
    }
    foreach (self::tokenLabels() as $field => $label) {
      $event->entity(self::ENTITY)->register($field, $label);
    }
  }

  public function evaluateTokens(TokenValueEvent $event): void {
    $wanted = array_intersect(
      $event->getTokenProcessor()->getMessageTokens()[self::ENTITY] ?? [],
      array_keys(self::tokenLabels())
    );
    if (!$wanted) {
      return;
    }
    $contactIds = [];
    foreach ($event->getRows() as $row) {
      if (!empty($row->context['contactId'])) {
        $contactIds[] = (int) $row->context['contactId'];
      }
    }
    $organizations = PersonalLinks::primaryContactOrganizations($contactIds);
    foreach ($event->getRows() as $row) {
      $contactId = (int) ($row->context['contactId'] ?? 0);
      $links = $contactId ? PersonalLinks::forContact($contactId, $organizations[$contactId] ?? []) : NULL;
      foreach ($wanted as $field) {
        // No contact (an anonymous preview) or no service address: an empty value, never a
        // link that cannot work.
        $row->format('text/plain')->tokens(self::ENTITY, $field, $links[$field] ?? '');
      }
    }
  }

}
