<?php

namespace Civi\CheckinMiddleware;

/**
 * A person's check-in links, as the service expects them (docs/decisions.md, "Personal links"):
 * `/?contactId=P&orgId=O&cid=P&cs=CHECKSUM` for the form and `/report?...` for the report. The
 * organization goes in only when the person is the 'Primary Contact' of exactly one; with
 * several the link has no orgId and the form offers the list.
 */
class PersonalLinks {

  /** The relationship the service reads (docs/product-rules.md, "CRM names"). */
  public const RELATIONSHIP = 'Primary Contact';

  /**
   * A personal link's lifetime, in hours (docs/organizer-guide.md, "Personal links in
   * mailings"): 7 days by default, as CiviCRM's own {contact.checksum}, long enough for an owner
   * who reads mail weekly, short enough that an old or forwarded message stops opening the form;
   * never more than 30 days and never unlimited.
   */
  public const DEFAULT_LINK_HOURS = 168;

  public const MAX_LINK_HOURS = 720;

  /**
   * The organizations each contact is the active 'Primary Contact' of, side read from the
   * relationship type the way the service does (an Individual only on side B: the person is B).
   *
   * @param int[] $contactIds
   * @return array<int, int[]> contact id => organization ids, ascending
   */
  public static function primaryContactOrganizations(array $contactIds): array {
    $contactIds = array_values(array_unique(array_filter(array_map('intval', $contactIds))));
    if (!$contactIds) {
      return [];
    }
    $rows = \Civi\Api4\Relationship::get(FALSE)
      ->addSelect('contact_id_a', 'contact_id_b', 'relationship_type_id.contact_type_a', 'relationship_type_id.contact_type_b')
      ->addWhere('relationship_type_id.name_a_b', '=', self::RELATIONSHIP)
      ->addWhere('is_active', '=', TRUE)
      ->addClause('OR', ['contact_id_a', 'IN', $contactIds], ['contact_id_b', 'IN', $contactIds])
      ->execute();
    $wanted = array_flip($contactIds);
    $organizations = [];
    foreach ($rows as $row) {
      $personOnB = ($row['relationship_type_id.contact_type_b'] ?? NULL) === 'Individual'
        && ($row['relationship_type_id.contact_type_a'] ?? NULL) !== 'Individual';
      [$person, $organization] = $personOnB
        ? [(int) $row['contact_id_b'], (int) $row['contact_id_a']]
        : [(int) $row['contact_id_a'], (int) $row['contact_id_b']];
      if (isset($wanted[$person])) {
        $organizations[$person][$organization] = $organization;
      }
    }
    foreach ($organizations as &$ids) {
      $ids = array_values($ids);
      sort($ids);
    }
    return $organizations;
  }

  /**
   * @param int[] $organizationIds the person's 'Primary Contact' organizations
   * @return array{form_url: string, report_url: string}|null NULL when the service's address is not set
   */
  public static function forContact(int $contactId, array $organizationIds): ?array {
    $base = self::serviceUrl();
    if ($base === NULL) {
      return NULL;
    }
    $checksum = \CRM_Contact_BAO_Contact_Utils::generateChecksum($contactId, NULL, self::linkHours());
    $query = ['contactId' => $contactId];
    if (count($organizationIds) === 1) {
      $query['orgId'] = (int) reset($organizationIds);
    }
    $query += ['cid' => $contactId, 'cs' => $checksum];
    $query = http_build_query($query, '', '&', PHP_QUERY_RFC3986);
    return [
      'form_url' => "$base/?$query",
      'report_url' => "$base/report?$query",
    ];
  }

  /**
   * The lifetime setting within 1..MAX_LINK_HOURS, whatever is stored: a value saved before the
   * bound existed (0 once meant "never expires") gives the default.
   */
  public static function linkHours(): int {
    $hours = (int) \Civi::settings()->get('checkin_middleware_link_hours');
    return ($hours >= 1 && $hours <= self::MAX_LINK_HOURS) ? $hours : self::DEFAULT_LINK_HOURS;
  }

  /** The lifetime setting's `validate_callback`: whole hours, 1 to MAX_LINK_HOURS. */
  public static function validateLinkHours(&$value, array $spec): bool {
    if (!is_numeric($value) || (int) $value != $value || (int) $value < 1 || (int) $value > self::MAX_LINK_HOURS) {
      throw new \CRM_Core_Exception(sprintf('checkin_middleware_link_hours must be a whole number of hours from 1 to %d', self::MAX_LINK_HOURS));
    }
    return TRUE;
  }

  /** The service's public address without a trailing slash, NULL when not set. */
  public static function serviceUrl(): ?string {
    $url = trim((string) \Civi::settings()->get('checkin_middleware_service_url'));
    return $url === '' ? NULL : rtrim($url, '/');
  }

}
