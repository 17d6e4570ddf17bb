<?php

use Civi\CheckinMiddleware\PersonalLinks;
use Civi\CheckinMiddleware\StaffLink;

/**
 * civicrm/checkin-staff-report?cid=ORG: sends a member of staff holding "open check-in staff
 * report" (the menu checks it) to that organization's staff report in the service, with a
 * freshly signed short-lived token in place of the shared staff key. Who opened which report is
 * written to CiviCRM's log; the token never is.
 */
class CRM_CheckinMiddleware_Page_StaffReport extends CRM_Core_Page {

  public function run() {
    $cid = $_GET['cid'] ?? NULL;
    if (!is_string($cid) || !preg_match('/^[1-9][0-9]{0,9}$/', $cid)) {
      $this->refuse(400, 'cid must be the id of an organization');
    }
    $organizationId = (int) $cid;
    $staffContactId = (int) CRM_Core_Session::getLoggedInContactID();
    if (!$staffContactId) {
      $this->refuse(403, 'Log in to CiviCRM to open a staff report');
    }
    $organization = \Civi\Api4\Contact::get(FALSE)
      ->addSelect('id', 'contact_type')
      ->addWhere('id', '=', $organizationId)
      ->addWhere('is_deleted', '=', FALSE)
      ->execute()
      ->first();
    if (!$organization || $organization['contact_type'] !== 'Organization') {
      $this->refuse(404, 'No organization has this id');
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
