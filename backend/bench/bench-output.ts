import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const OUTPUT_DIR = join(__dirname, '..', '..', 'dist', 'bench');

export type BenchRow = Record<string, string | number | boolean>;

/**
 * One figure held to a target. `tools/bench/run.mjs` reads the `figures` of every
 * dist/bench/*.json into its summary table (PASS/MISS), so a bench that has targets passes
 * them as `reportBench(name, rows, { figures })`.
 */
export interface BenchFigure {
  /** What was measured, as the summary shows it. */
  figure: string;
  value: number;
  unit: string;
  /** Bounds the value must keep; none for a figure reported for information. */
  target: { max?: number; min?: number };
}

/** Rounds for tables and JSON: figures are read by people, not compared to the microsecond. */
export function round(value: number, digits = 2): number {
  return Number(value.toFixed(digits));
}

/** Prints a table and writes the same figures to dist/bench/<name>.json. */
export function reportBench(name: string, rows: BenchRow[], extra: Record<string, unknown> = {}): void {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  writeFileSync(join(OUTPUT_DIR, `${name}.json`), `${JSON.stringify({ name, rows, ...extra }, null, 2)}\n`);
  process.stdout.write(`\n${name}\n${formatTable(rows)}\n`);
}

export function formatTable(rows: BenchRow[]): string {
  if (rows.length === 0) return '(no rows)';
  const columns = Object.keys(rows[0] ?? {});
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => String(row[column] ?? '').length)),
  );
  const line = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join('  ');
  return [
    line(columns),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map((row) => line(columns.map((column) => String(row[column] ?? '')))),
  ].join('\n');
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}
