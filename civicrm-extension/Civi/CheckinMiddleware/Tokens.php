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

  /**
   * What a preview or a render for someone else shows in place of a link (docs/organizer-guide.md,
   * "Personal links in mailings").
   */
  public const PLACEHOLDER = [
    'form_url' => '[check-in form link: made when the message is sent]',
    'report_url' => '[check-in report link: made when the message is sent]',
  ];

  /**
   * A real link opens the owner's form as the owner, so one is made only for an active Primary
   * Contact of a co-op, and only when the message goes to that person (a CiviMail job or a
   * scheduled reminder) or the acting user may edit that contact anyway. Everything else that
   * merges tokens (Mailing.preview, WorkflowMessage.render, MessageTemplate previews, a single
   * email from staff who may only view the contact) gets the placeholder.
   */
  public function evaluateTokens(TokenValueEvent $event): void {
    $processor = $event->getTokenProcessor();
    $wanted = array_intersect(
      $processor->getMessageTokens()[self::ENTITY] ?? [],
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
      if ($contactId && !self::linkAllowed($processor->context, $row->context, $contactId)) {
        $values = self::PLACEHOLDER;
      }
      else {
        // No contact (an anonymous preview), a contact who owns no co-op, or no service address:
        // an empty value, never a link that cannot work.
        $values = ($contactId && !empty($organizations[$contactId]))
          ? PersonalLinks::forContact($contactId, $organizations[$contactId])
          : NULL;
      }
      foreach ($wanted as $field) {
        $row->format('text/plain')->tokens(self::ENTITY, $field, $values[$field] ?? '');
      }
    }
  }

  /**
   * @param array $processorContext the token processor's context (who merges: `controller`)
   * @param array|\ArrayAccess $rowContext the recipient's context (a TokenRowContext)
   */
  public static function linkAllowed(array $processorContext, $rowContext, int $contactId): bool {
    return self::isSendingTo($processorContext, $rowContext)
      || \CRM_Contact_BAO_Contact_Permission::allow($contactId, \CRM_Core_Permission::EDIT);
  }

  /**
   * A message being sent to the row's contact: a CiviMail job that exists (Mailing.preview
   * composes with an unsaved job, whose id is empty) or a scheduled reminder run by cron.
   */
  private static function isSendingTo(array $processorContext, $rowContext): bool {
    $controller = (string) ($processorContext['controller'] ?? '');
    if ($controller !== '' && is_a($controller, 'Civi\\FlexMailer\\Listener\\DefaultComposer', TRUE)) {
      $jobId = (int) ($rowContext['mailingJobId'] ?? 0);
      $mailingId = (int) ($processorContext['mailingId'] ?? 0);
      if ($jobId <= 0 || $mailingId <= 0) {
        return FALSE;
      }
      // One query per job, not per recipient of a large mailing.
      return \Civi::$statics[__CLASS__]['jobs']["$jobId:$mailingId"] ??= (bool) \CRM_Core_DAO::singleValueQuery(
        'SELECT id FROM civicrm_mailing_job WHERE id = %1 AND mailing_id = %2',
        [1 => [$jobId, 'Positive'], 2 => [$mailingId, 'Positive']]
      );
    }
    return $controller === 'CRM_Core_BAO_ActionSchedule' && !empty($rowContext['actionSearchResult']);
  }

}
