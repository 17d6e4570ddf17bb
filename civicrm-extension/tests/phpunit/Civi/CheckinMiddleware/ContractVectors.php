<?php

namespace Civi\CheckinMiddleware;

/**
 * The values the extension and the service exchange, as JSON vectors both test suites read
 * (libs/contract/vectors; the service's side: backend/src/app/extension-contract.spec.ts).
 */
trait ContractVectors {

  /**
   * @return array<string, mixed>
   */
  protected static function vectors(string $name): array {
    $file = dirname(__DIR__, 5) . "/libs/contract/vectors/$name.json";
    $vectors = json_decode((string) file_get_contents($file), TRUE);
    if (!is_array($vectors)) {
      throw new \RuntimeException("No contract vectors at $file");
    }
    return $vectors;
  }

  /**
   * Each vector of a list under its name, for a data provider.
   *
   * @return array<string, array{array<string, mixed>}>
   */
  protected static function named(array $list): array {
    $cases = [];
    foreach ($list as $vector) {
      $cases[$vector['name']] = [$vector];
    }
    return $cases;
  }

  /**
   * Sets extension settings for one test; `restoreSettings` puts the earlier values back.
   */
  protected function setSettings(array $values): void {
    foreach ($values as $name => $value) {
      $this->savedSettings[$name] ??= \Civi::settings()->get($name);
      \Civi::settings()->set($name, $value);
    }
  }

  protected function restoreSettings(): void {
    foreach ($this->savedSettings ?? [] as $name => $value) {
      \Civi::settings()->set($name, $value);
    }
    $this->savedSettings = [];
  }

}
