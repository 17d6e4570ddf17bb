<?php

use Civi\CheckinMiddleware\PersonalLinks;
use Civi\CheckinMiddleware\StaffLink;

/**
 * civicrm/checkin-staff-report?cid=ORG: sends a member of staff holding "access CiviCRM" and
 * "open check-in staff report" (the menu checks both) who may see that organization in CiviCRM
 * (CiviCRM's own contact permission check: "view all contacts", ACLs, relationships) to its staff
 * report in the service, with a freshly signed short-lived token in place of the shared staff key.
 * An organization the user may not see and an id that is no organization get the same answer, so
 * the route tells nothing about contacts the user cannot see. Who opened which report is written
 * to CiviCRM's log; the token never is.
 */
class CRM_CheckinMiddleware_Page_StaffReport extends CRM_Core_Page {

  public function run() {
    $cid = $_GET['cid'] ?? NULL;
    // \z, not $: "3\n" is not an id.
    if (!is_string($cid) || !preg_match('/^[1-9][0-9]{0,9}\z/', $cid)) {
      $this->refuse(400, 'cid must be the id of an organization');
    }
    $organizationId = (int) $cid;
    $staffContactId = (int) CRM_Core_Session::getLoggedInContactID();
    if (!$staffContactId) {
      $this->refuse(403, 'Log in to CiviCRM to open a staff report');
    }
    // The menu asks for both already; a menu rebuilt from an older copy of this extension would not.
    if (!CRM_Core_Permission::check(['access CiviCRM', StaffLink::PERMISSION])) {
      $this->refuse(403, 'Opening a staff report needs the permissions "access CiviCRM" and "' . StaffLink::PERMISSION . '"');
    }
    $organization = \Civi\Api4\Contact::get(FALSE)
      ->addSelect('id', 'contact_type')
      ->addWhere('id', '=', $organizationId)
      ->addWhere('is_deleted', '=', FALSE)
      ->execute()
      ->first();
    if (!$organization || $organization['contact_type'] !== 'Organization'
      || !CRM_Contact_BAO_Contact_Permission::allow($organizationId, CRM_Core_Permission::VIEW)) {
      $this->refuse(404, 'No organization you may see has this id');
    }
    $serviceUrl = PersonalLinks::serviceUrl();
    $key = StaffLink::key();
    if ($serviceUrl === NULL || $key === NULL) {
      $this->refuse(503, 'The check-in staff report link is not set up: an administrator sets the service address and the signing key (Check-in middleware settings)');
    }
    $token = StaffLink::mint($staffContactId, $organizationId, time() + 60 * StaffLink::minutes(), $key);
    Civi::log()->info('checkin_middleware: staff contact {staff} opened the check-in staff report of organization {org}', [
      'staff' => $staffContactId,
      'org' => $organizationId,
    ]);
    CRM_Utils_System::redirect(StaffLink::staffPageUrl($serviceUrl, $organizationId, $token));
  }

  private function refuse(int $status, string $message): void {
    http_response_code($status);
    header('Content-Type: text/plain; charset=utf-8');
    header('Cache-Control: no-store');
    echo $message, "\n";
    CRM_Utils_System::civiExit();
  }

}
