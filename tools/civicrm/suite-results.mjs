/**
 * The real-CiviCRM suite's tally: tests passed, failed and skipped over every site, and one summary
 * line per result (tools/civicrm/real-suite.mjs prints them, then `N passed, N failed` last). It
 * reads the reports the suite's tools write: jest's JSON, Playwright's JSON, PHPUnit's JUnit XML
 * and the extension script's own totals line.
 */
import { existsSync, readFileSync } from 'node:fs';

export function createTally() {
  const totals = { passed: 0, failed: 0, skipped: 0 };
  const lines = [];
  const mark = (ok) => (ok ? 'ok  ' : 'FAIL');

  const tally = {
    totals,
    lines,
    fail(label, detail) {
      totals.failed += 1;
      lines.push(`FAIL ${label}${detail ? `: ${detail}` : ''}`);
    },
    pass(label) {
      totals.passed += 1;
      lines.push(`ok   ${label}`);
    },
    skip(label) {
      totals.skipped += 1;
      lines.push(`skip ${label}`);
    },
    note(line) {
      lines.push(line);
    },
    jest(label, output) {
      if (!existsSync(output)) return tally.fail(label, 'no results');
      const report = JSON.parse(readFileSync(output, 'utf8'));
      const failed = report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0);
      totals.passed += report.numPassedTests;
      totals.failed += failed;
      totals.skipped += report.numPendingTests;
      lines.push(`${mark(failed === 0)} ${label}: ${report.numPassedTests} passed, ${failed} failed`);
    },
    playwright(label, output) {
      if (!existsSync(output)) return tally.fail(label, 'no results');
      const { stats } = JSON.parse(readFileSync(output, 'utf8'));
      const passed = stats.expected + stats.flaky;
      totals.passed += passed;
      totals.failed += stats.unexpected;
      lines.push(`${mark(stats.unexpected === 0)} ${label}: ${passed} passed, ${stats.unexpected} failed`);
    },
    /** A script that prints its own `N passed, N failed` (civicrm-extension/tests/run.sh). */
    script(label, { ok, stdout }) {
      // The last totals line: a script may print partial counts before it (the upgrade run's phases).
      const count = [...stdout.matchAll(/(\d+) passed, (\d+) failed/g)].at(-1);
      if (!count) return ok ? undefined : tally.fail(label);
      totals.passed += Number(count[1]);
      totals.failed += Number(count[2]);
      lines.push(`${mark(ok)} ${label} ${count[0]}`);
    },
    /** PHPUnit's JUnit report: its first <testsuite> holds the totals of the whole run. */
    junit(label, output, exitedOk) {
      if (!existsSync(output)) return tally.fail(label, 'no results');
      const suite = /<testsuite\b[^>]*>/.exec(readFileSync(output, 'utf8'))?.[0] ?? '';
      const count = (name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite)?.[1] ?? 0);
      const failed = count('failures') + count('errors');
      const skipped = count('skipped');
      const passed = count('tests') - failed - skipped;
      totals.passed += passed;
      totals.failed += failed;
      totals.skipped += skipped;
      lines.push(
        `${mark(failed === 0 && exitedOk)} ${label} ${passed} passed, ${failed} failed` +
          (skipped ? `, ${skipped} skipped` : ''),
      );
      if (failed === 0 && !exitedOk) tally.fail(label, 'it failed without failing a test');
    },
    /** The totals line, last of the suite's output. */
    totalsLine() {
      return `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`;
    },
  };
  return tally;
}
