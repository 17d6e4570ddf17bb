import type { FieldConfig, FieldReport, FieldType, QuarterlyMatrix, StageRank } from '@checkin/contract';
import { MATRIX_FIELD_PATTERN, MATRIX_METRICS } from '../fields/field-config';

/**
 * The stage-5 first-year fields (`Y1_Q<n>_<metric>`) as one table of metrics by quarters, built
 * here once for the owner's report and the staff report, so both pages show the same metrics,
 * labels, order and quarters.
 */
export const QUARTERS = ['Q1', 'Q2', 'Q3', 'Q4'] as const;
export const MATRIX_SECTION_RANK: StageRank = 5;

export interface MatrixLayoutRow {
  metric: string;
  label: string;
  type: FieldType;
  /** Q1..Q4; null where neither the configuration nor the CRM has the field. */
  cells: Array<FieldConfig | null>;
}

function matrixPosition(field: FieldConfig): { quarter: number; metric: string } | null {
  if (!field.crmField) return null;
  const shortName = field.crmField.slice(field.crmField.indexOf('.') + 1);
  const match = MATRIX_FIELD_PATTERN.exec(shortName);
  return match?.[1] && match[2] ? { quarter: Number(match[1]), metric: match[2] } : null;
}

export function isMatrixField(field: FieldConfig): boolean {
  return matrixPosition(field) !== null;
}

/** Configured metrics first, in their order, then any further metric the CRM has, by name. */
export function matrixRows(fields: readonly FieldConfig[]): MatrixLayoutRow[] {
  const byMetric = new Map<string, Array<FieldConfig | null>>();
  for (const field of fields) {
    const position = matrixPosition(field);
    if (!position) continue;
    const cells = byMetric.get(position.metric) ?? QUARTERS.map(() => null);
    cells[position.quarter - 1] = field;
    byMetric.set(position.metric, cells);
  }
  const known = MATRIX_METRICS.filter((metric) => byMetric.has(metric.key)).map((metric) => ({
    metric: metric.key,
    label: metric.label,
    type: metric.type,
  }));
  const knownKeys = new Set<string>(known.map((metric) => metric.metric));
  const further = [...byMetric.keys()]
    .filter((key) => !knownKeys.has(key))
    .sort()
    .map((key) => ({ metric: key, label: key, type: firstCellType(byMetric.get(key)) }));
  return [...known, ...further].map((metric) => ({ ...metric, cells: byMetric.get(metric.metric) ?? [] }));
}

/** The matrix with each cell's latest value and history; null when there is no matrix field. */
export function buildQuarterlyMatrix(
  rows: readonly MatrixLayoutRow[],
  report: (field: FieldConfig) => FieldReport,
): QuarterlyMatrix | null {
  if (rows.length === 0) return null;
  return {
    sectionRank: MATRIX_SECTION_RANK,
    quarters: [...QUARTERS],
    rows: rows.map((row) => ({ ...row, cells: row.cells.map((cell) => cell && report(cell)) })),
  };
}

function firstCellType(cells: ReadonlyArray<FieldConfig | null> | undefined): FieldType {
  return cells?.find((cell) => cell !== null)?.type ?? 'number';
}
