<?php

namespace Civi\CheckinMiddleware;

use Civi\Api4\File;

/**
 * File.create as the service calls it (the marker is the request header it sends), for tests
 * that upload; the files written are removed after each test (their rows are rolled back).
 */
trait UploadFixtures {

  /** @var string[] */
  private array $written = [];

  protected function tearDown(): void {
    unset($_SERVER['HTTP_X_CHECKIN_CONTENT_ENCODING']);
    foreach ($this->written as $path) {
      if (is_file($path)) {
        unlink($path);
      }
    }
    parent::tearDown();
  }

  /**
   * @param string|null $marker the X-Checkin-Content-Encoding header's value, NULL for none
   * @return array File.create's answer row
   */
  private function createFile(array $values, ?string $marker = 'base64'): array {
    if ($marker === NULL) {
      unset($_SERVER['HTTP_X_CHECKIN_CONTENT_ENCODING']);
    }
    else {
      $_SERVER['HTTP_X_CHECKIN_CONTENT_ENCODING'] = $marker;
    }
    try {
      $row = File::create(FALSE)->setValues($values + ['mime_type' => 'application/pdf'])->execute()->single();
    }
    finally {
      unset($_SERVER['HTTP_X_CHECKIN_CONTENT_ENCODING']);
    }
    if (!empty($row['uri'])) {
      $this->written[] = (string) Uploads::path((string) $row['uri']);
    }
    return $row;
  }

}
