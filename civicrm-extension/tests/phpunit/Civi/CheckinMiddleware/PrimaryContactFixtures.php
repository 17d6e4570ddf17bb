<?php

namespace Civi\CheckinMiddleware;

/**
 * Contacts and 'Primary Contact' relationships for the tests, made without permission checks.
 */
trait PrimaryContactFixtures {

  protected function individual(string $firstName): int {
    return (int) \Civi\Api4\Contact::create(FALSE)
      ->addValue('contact_type', 'Individual')
      ->addValue('first_name', $firstName)
      ->addValue('last_name', 'Checkin-test')
      ->execute()->first()['id'];
  }

  protected function organization(string $name): int {
    return (int) \Civi\Api4\Contact::create(FALSE)
      ->addValue('contact_type', 'Organization')
      ->addValue('organization_name', $name)
      ->execute()->first()['id'];
  }

  /**
   * The relationship with its sides as the relationship type has them (the service reads either).
   */
  protected function primaryContact(int $person, int $organization, bool $active = TRUE): void {
    $type = \Civi\Api4\RelationshipType::get(FALSE)
      ->addWhere('name_a_b', '=', PersonalLinks::RELATIONSHIP)
      ->execute()->first();
    $personOnB = ($type['contact_type_b'] ?? NULL) === 'Individual' && ($type['contact_type_a'] ?? NULL) !== 'Individual';
    \Civi\Api4\Relationship::create(FALSE)
      ->addValue('relationship_type_id', $type['id'])
      ->addValue('contact_id_a', $personOnB ? $organization : $person)
      ->addValue('contact_id_b', $personOnB ? $person : $organization)
      ->addValue('is_active', $active)
      ->execute();
  }

}
