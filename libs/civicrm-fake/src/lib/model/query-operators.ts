import { type Operator } from './types';
import { type ResolvedField, comparable, compareComparable, fail, isEmptyValue, likeRegex } from './values';

/** APIv4 where operators and sort order, one value at a time (docs/civicrm-wire-protocol.md). */

export function mentionsField(clauses: unknown[], field: string): boolean {
  return clauses.some((clause) => {
    if (!Array.isArray(clause)) return false;
    const [head, second] = clause as [unknown, unknown];
    if ((head === 'OR' || head === 'AND' || head === 'NOT') && Array.isArray(second)) {
      return mentionsField(second, field);
    }
    return typeof head === 'string' && head.split(':')[0] === field;
  });
}

export function operatorTest(
  operator: Operator,
  value: unknown,
  field: ResolvedField,
): (actual: unknown) => boolean {
  const cs = field.pseudo;
  const norm = (item: unknown) => comparable(field, item);
  const equal = (actual: unknown, expected: unknown) =>
    actual !== null && expected !== null && compareComparable(norm(actual), norm(expected), cs) === 0;
  const anyOf = (actual: unknown, test: (item: unknown) => boolean) =>
    Array.isArray(actual) ? actual.some(test) : test(actual);
  const present = (actual: unknown) => actual !== null && actual !== undefined;
  const relational = (test: (order: number) => boolean) => (actual: unknown) =>
    present(actual) &&
    present(value) &&
    !Array.isArray(actual) &&
    test(compareComparable(norm(actual), norm(value), cs));

  switch (operator) {
    case '=':
      return (actual) => present(actual) && anyOf(actual, (item) => equal(item, value));
    case '!=':
    case '<>':
      return (actual) => present(actual) && !anyOf(actual, (item) => equal(item, value));
    case '>':
      return relational((order) => order > 0);
    case '>=':
      return relational((order) => order >= 0);
    case '<':
      return relational((order) => order < 0);
    case '<=':
      return relational((order) => order <= 0);
    case 'IN':
    case 'NOT IN': {
      const list: unknown[] = Array.isArray(value) ? value : fail(`${operator} expects an array value`);
      const isIn = (actual: unknown) =>
        anyOf(actual, (item) => list.some((candidate) => equal(item, candidate)));
      return operator === 'IN'
        ? (actual) => present(actual) && isIn(actual)
        : (actual) => present(actual) && !isIn(actual);
    }
    case 'LIKE':
    case 'NOT LIKE': {
      if (typeof value !== 'string' && typeof value !== 'number') fail(`${operator} expects a string value`);
      const regex = likeRegex(String(value), cs);
      const isLike = (actual: unknown) => anyOf(actual, (item) => regex.test(String(item)));
      return operator === 'LIKE'
        ? (actual) => present(actual) && isLike(actual)
        : (actual) => present(actual) && !isLike(actual);
    }
    case 'CONTAINS':
    case 'NOT CONTAINS': {
      const contains = (actual: unknown) => containsValue(actual, value, field);
      return operator === 'CONTAINS'
        ? (actual) => present(actual) && contains(actual)
        : (actual) => present(actual) && !contains(actual);
    }
    case 'IS EMPTY':
      return isEmptyValue;
    case 'IS NOT EMPTY':
      return (actual) => !isEmptyValue(actual);
    case 'IS NULL':
      return (actual) => !present(actual);
    case 'IS NOT NULL':
      return present;
    case 'BETWEEN': {
      if (!Array.isArray(value) || value.length !== 2) fail('BETWEEN expects an array of two values');
      const [low, high] = value as [unknown, unknown];
      return (actual) =>
        present(actual) &&
        !Array.isArray(actual) &&
        compareComparable(norm(actual), norm(low), cs) >= 0 &&
        compareComparable(norm(actual), norm(high), cs) <= 0;
    }
  }
}

/** CONTAINS: membership for arrays (every given value), substring for strings. */
function containsValue(actual: unknown, value: unknown, field: ResolvedField): boolean {
  const wanted = Array.isArray(value) ? value : [value];
  if (Array.isArray(actual)) {
    return wanted.every((item) =>
      actual.some(
        (element) =>
          compareComparable(comparable(field, element), comparable(field, item), field.pseudo) === 0,
      ),
    );
  }
  const text = field.pseudo ? String(actual) : String(actual).toLowerCase();
  return wanted.every((item) => text.includes(field.pseudo ? String(item) : String(item).toLowerCase()));
}

/** orderBy: NULL sorts first ascending, as in MySQL. */
export function compareForSort(field: ResolvedField, a: unknown, b: unknown): number {
  const aNull = a === null || a === undefined;
  const bNull = b === null || b === undefined;
  if (aNull || bNull) return aNull === bNull ? 0 : aNull ? -1 : 1;
  return compareComparable(comparable(field, a), comparable(field, b), field.pseudo);
}
