<?php

namespace Civi\CheckinMiddleware;

use Civi\Core\Event\GenericHookEvent;
use Civi\Core\Service\AutoSubscriber;

/**
 * Shows plain-text custom fields (html_type TextArea) escaped.
 *
 * Stock CiviCRM prints a TextArea value with nl2br() alone, so markup stored in it (through the
 * API, an import, or any integration) runs as script in the back office of whoever opens the
 * record: the activity view of a check-in, for one. A TextArea is a plain-text box; HTML belongs
 * in RichTextEditor fields, which this leaves alone. The check-in middleware refuses markup
 * before it reaches the CRM as well; this covers values stored by earlier versions or other
 * callers.
 */
class OwnerTextDisplay extends AutoSubscriber {

  public static function getSubscribedEvents(): array {
    return ['hook_civicrm_alterCustomFieldDisplayValue' => 'onAlterDisplayValue'];
  }

  public function onAlterDisplayValue(GenericHookEvent $event): void {
    $field = $event->fieldInfo ?? [];
    if (($field['html_type'] ?? NULL) !== 'TextArea' || !is_string($event->value)) {
      return;
    }
    $event->displayValue = self::plainTextHtml($event->value);
  }

  public static function plainTextHtml(string $text): string {
    return nl2br(htmlspecialchars($text, ENT_QUOTES | ENT_SUBSTITUTE | ENT_HTML5, 'UTF-8'));
  }

}
