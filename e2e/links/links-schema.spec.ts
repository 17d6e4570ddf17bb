import { expect, test } from '@playwright/test';
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';

const REPO_ROOT = resolve(__dirname, '..', '..');
const SCHEMA_PATH = 'data/links.schema.json';
const FIXTURES = join(__dirname, 'fixtures');

/** The parts of a JSON Schema these tests look at. */
interface SchemaNode {
  $ref?: string;
  description?: string;
  examples?: unknown[];
  format?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean;
  const?: unknown;
  oneOf?: SchemaNode[];
}

const schema: SchemaNode & {
  $schema: string;
  $id: string;
  title: string;
  $defs: Record<string, SchemaNode>;
} = JSON.parse(readFileSync(join(REPO_ROOT, SCHEMA_PATH), 'utf8'));

/** The definition a local `$ref` points to, or the node itself. */
function deref(node: SchemaNode): SchemaNode {
  return node.$ref ? (schema.$defs[node.$ref.replace('#/$defs/', '')] ?? {}) : node;
}

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(schema);

const ITEM = '/sections/0/items/0';

/** The error each invalid fixture must produce: keyword, where, and the parameters that name the culprit. */
const EXPECTED_ERRORS: Record<
  string,
  [keyword: string, instancePath: string, params?: Record<string, unknown>]
> = {
  'root-unknown-property': ['additionalProperties', '', { additionalProperty: 'colour' }],
  'root-missing-profile': ['required', '', { missingProperty: 'profile' }],
  'root-missing-sections': ['required', '', { missingProperty: 'sections' }],
  'root-sections-not-an-array': ['type', '/sections', { type: 'array' }],
  'root-social-not-an-array': ['type', '/social', { type: 'array' }],
  'root-schema-not-a-string': ['type', '/$schema', { type: 'string' }],
  'profile-missing-name': ['required', '/profile', { missingProperty: 'name' }],
  'profile-name-not-a-string': ['type', '/profile/name', { type: 'string' }],
  'profile-avatar-not-a-uri-reference': ['format', '/profile/avatar', { format: 'uri-reference' }],
  'theme-template-not-in-enum': [
    'enum',
    '/theme/template',
    { allowedValues: ['editorial', 'swiss', 'cosmos'] },
  ],
  'theme-accent-not-a-string': ['type', '/theme/accent', { type: 'string' }],
  'footer-editurl-not-a-uri': ['format', '/footer/editUrl', { format: 'uri' }],
  'footer-year-not-a-string': ['type', '/footer/year', { type: 'string' }],
  'section-unknown-property': ['additionalProperties', '/sections/0', { additionalProperty: 'collapsed' }],
  'section-missing-id': ['required', '/sections/0', { missingProperty: 'id' }],
  'section-missing-label': ['required', '/sections/0', { missingProperty: 'label' }],
  'section-missing-items': ['required', '/sections/0', { missingProperty: 'items' }],
  'section-layout-not-in-enum': [
    'enum',
    '/sections/0/layout',
    { allowedValues: ['clients', 'testimonials'] },
  ],
  'section-headless-not-a-boolean': ['type', '/sections/0/headless', { type: 'boolean' }],
  'item-type-unknown': ['oneOf', ITEM, { passingSchemas: null }],
  'item-type-missing': ['oneOf', ITEM, { passingSchemas: null }],
  'item-type-wrong-case': ['oneOf', ITEM, { passingSchemas: null }],
  'item-not-an-object': ['oneOf', ITEM, { passingSchemas: null }],
  'link-unknown-property': ['additionalProperties', ITEM, { additionalProperty: 'tags' }],
  'link-missing-title': ['required', ITEM, { missingProperty: 'title' }],
  'link-missing-url': ['required', ITEM, { missingProperty: 'url' }],
  'link-url-not-a-uri-reference': ['format', `${ITEM}/url`, { format: 'uri-reference' }],
  'link-featured-not-a-boolean': ['type', `${ITEM}/featured`, { type: 'boolean' }],
  'card-unknown-property': ['additionalProperties', ITEM, { additionalProperty: 'image' }],
  'card-missing-title': ['required', ITEM, { missingProperty: 'title' }],
  'card-repo-not-a-uri': ['format', `${ITEM}/repo`, { format: 'uri' }],
  'card-tags-not-strings': ['type', `${ITEM}/tags/1`, { type: 'string' }],
  'video-unknown-property': ['additionalProperties', ITEM, { additionalProperty: 'url' }],
  'video-missing-id': ['required', ITEM, { missingProperty: 'id' }],
  'video-missing-title': ['required', ITEM, { missingProperty: 'title' }],
  'video-id-not-11-characters': ['pattern', `${ITEM}/id`],
  'portfolio-unknown-property': ['additionalProperties', ITEM, { additionalProperty: 'tags' }],
  'portfolio-missing-image': ['required', ITEM, { missingProperty: 'image' }],
  'portfolio-ratio-with-a-slash': ['pattern', `${ITEM}/ratio`, { pattern: '^[0-9]+:[0-9]+$' }],
  'portfolio-ratio-with-decimals': ['pattern', `${ITEM}/ratio`, { pattern: '^[0-9]+:[0-9]+$' }],
  'portfolio-ratio-as-a-number': ['type', `${ITEM}/ratio`, { type: 'string' }],
  'client-unknown-property': ['additionalProperties', ITEM, { additionalProperty: 'quote' }],
  'client-missing-title': ['required', ITEM, { missingProperty: 'title' }],
  'testimonial-unknown-property': ['additionalProperties', ITEM, { additionalProperty: 'title' }],
  'testimonial-missing-quote': ['required', ITEM, { missingProperty: 'quote' }],
  'date-empty-string': ['minLength', `${ITEM}/date`, { limit: 1 }],
  'date-not-a-string': ['type', `${ITEM}/date`, { type: 'string' }],
  'social-unknown-property': ['additionalProperties', '/social/0', { additionalProperty: 'handle' }],
  'social-missing-label': ['required', '/social/0', { missingProperty: 'label' }],
  'social-missing-url': ['required', '/social/0', { missingProperty: 'url' }],
  'social-url-not-a-uri-reference': ['format', '/social/0/url', { format: 'uri-reference' }],
};

function fixtures(kind: 'valid' | 'invalid') {
  return readdirSync(join(FIXTURES, kind))
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(FIXTURES, kind, name));
}

/** The two commands of the CI workflow, run exactly as written there. */
function ciChecks(file: string) {
  const path = relative(REPO_ROOT, file);
  return { syntax: run('jq', ['empty', path]), schemaCheck: run(AJV, [...AJV_OPTIONS, '-d', path]) };
}

const AJV = join('node_modules', '.bin', 'ajv');
const AJV_OPTIONS = ['validate', '--spec=draft2020', '-c', 'ajv-formats', '-s', SCHEMA_PATH];

function run(command: string, args: string[]) {
  return spawnSync(command, args, { cwd: REPO_ROOT, encoding: 'utf8' });
}

let fixtureVerdicts: Map<string, 'valid' | 'invalid'> | undefined;

/**
 * The workflow's schema check's verdict on each fixture: one ajv-cli run with a `-d` per file (it
 * prints "<file> valid" or "<file> invalid" for each), not one process per file, which cost most
 * of this suite's minute.
 */
function ajvVerdict(file: string): 'valid' | 'invalid' | undefined {
  if (!fixtureVerdicts) {
    const paths = [...fixtures('valid'), ...fixtures('invalid')].map((each) => relative(REPO_ROOT, each));
    const checked = run(AJV, [...AJV_OPTIONS, ...paths.flatMap((path) => ['-d', path])]);
    const said = new Set(`${checked.stdout}\n${checked.stderr}`.split('\n'));
    fixtureVerdicts = new Map();
    for (const path of paths) {
      const valid = said.has(`${path} valid`);
      const invalid = said.has(`${path} invalid`);
      if (valid !== invalid) fixtureVerdicts.set(path, valid ? 'valid' : 'invalid');
    }
  }
  return fixtureVerdicts.get(relative(REPO_ROOT, file));
}

function describeErrors(errors: ErrorObject[] | null | undefined) {
  return (errors ?? [])
    .map((e) => `${e.instancePath || '/'} ${e.keyword} ${JSON.stringify(e.params)}`)
    .join('\n');
}

test.describe('the content schema', () => {
  test('is a titled JSON Schema 2020-12 document with an unversioned $id, and compiles in strict mode', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.title).toEqual(expect.any(String));
    expect(schema.description).toEqual(expect.any(String));
    expect(schema.$id).toEqual(expect.any(String));
    expect(schema.$id).not.toMatch(/v?\d+(\.\d+)+|\/v\d+\b/);
    expect(schema).not.toHaveProperty('version');
    expect(typeof validate).toBe('function');
  });

  test('gives every property a description and examples, for editor autocomplete', () => {
    const missing: string[] = [];
    for (const [owner, node] of [['root', schema] as const, ...Object.entries(schema.$defs)]) {
      for (const [name, property] of Object.entries(node.properties ?? {})) {
        // Annotations beside a $ref refine the referenced definition's own.
        const annotated = { ...deref(property), ...property };
        if (typeof annotated.description !== 'string') missing.push(`${owner}.${name}: description`);
        if (!annotated.examples?.length) missing.push(`${owner}.${name}: examples`);
      }
    }
    expect(missing).toEqual([]);
  });

  test('no item can match two kinds: each kind is closed and requires its own type constant', () => {
    const kinds = (schema.$defs['item']?.oneOf ?? []).map(deref);
    expect(kinds.map((kind) => kind.properties?.['type']?.const)).toEqual([
      'link',
      'card',
      'video',
      'portfolio',
      'client',
      'testimonial',
    ]);
    for (const kind of kinds) {
      expect(kind.required).toContain('type');
      expect(kind.additionalProperties).toBe(false);
    }
  });

  test('uses format uri for card.repo and footer.editUrl, and uri-reference for every other address', () => {
    const formats: Record<string, string> = {};
    for (const [owner, node] of Object.entries(schema.$defs)) {
      for (const [name, property] of Object.entries(node.properties ?? {})) {
        const format = property.format ?? deref(property).format;
        if (format) formats[`${owner}.${name}`] = format;
      }
    }
    expect(formats).toEqual({
      'profile.avatar': 'uri-reference',
      'footer.editUrl': 'uri',
      'social.url': 'uri-reference',
      'linkItem.url': 'uri-reference',
      'linkItem.image': 'uri-reference',
      'linkItem.icon': 'uri-reference',
      'cardItem.url': 'uri-reference',
      'cardItem.repo': 'uri',
      'portfolioItem.image': 'uri-reference',
      'portfolioItem.url': 'uri-reference',
      'clientItem.url': 'uri-reference',
      'clientItem.image': 'uri-reference',
      'clientItem.icon': 'uri-reference',
      'testimonialItem.url': 'uri-reference',
      'testimonialItem.image': 'uri-reference',
      'testimonialItem.icon': 'uri-reference',
    });
  });

  test('every invalid fixture has its expected error recorded here, and every recorded error has a fixture', () => {
    const names = fixtures('invalid').map((file) => basename(file, '.json'));
    expect(names).toEqual(Object.keys(EXPECTED_ERRORS).sort());
  });

  test('a file that is not JSON fails the CI syntax check and the schema check', () => {
    const dir = mkdtempSync(join(tmpdir(), 'links-'));
    try {
      const file = join(dir, 'links.json');
      writeFileSync(file, '{ "profile": { "name": "Robin" }, "sections": [], }\n');
      const { syntax, schemaCheck } = ciChecks(file);
      expect(syntax.status).not.toBe(0);
      expect(schemaCheck.status).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test("accepts data/links.json, and so do the workflow's two commands", () => {
  const file = join(REPO_ROOT, 'data', 'links.json');
  const data = JSON.parse(readFileSync(file, 'utf8'));
  expect(validate(data), describeErrors(validate.errors)).toBe(true);

  const { syntax, schemaCheck } = ciChecks(file);
  expect(syntax.status, syntax.stderr).toBe(0);
  expect(schemaCheck.status, schemaCheck.stderr).toBe(0);
});

for (const file of fixtures('valid')) {
  test(`accepts ${relative(REPO_ROOT, file)}`, () => {
    const data = JSON.parse(readFileSync(file, 'utf8'));
    expect(validate(data), describeErrors(validate.errors)).toBe(true);

    expect(run('jq', ['empty', relative(REPO_ROOT, file)]).status).toBe(0);
    expect(ajvVerdict(file)).toBe('valid');
  });
}

for (const file of fixtures('invalid')) {
  const name = basename(file, '.json');
  const [keyword, instancePath, params] = EXPECTED_ERRORS[name] ?? [];
  test(`rejects ${relative(REPO_ROOT, file)}: ${keyword} at ${instancePath || '/'}`, () => {
    expect(keyword, `no expected error recorded for ${name}`).toBeDefined();
    const data = JSON.parse(readFileSync(file, 'utf8'));
    expect(validate(data)).toBe(false);
    expect(validate.errors, describeErrors(validate.errors)).toContainEqual(
      expect.objectContaining({
        keyword,
        instancePath,
        ...(params ? { params: expect.objectContaining(params) } : {}),
      }),
    );

    expect(run('jq', ['empty', relative(REPO_ROOT, file)]).status, 'the file itself is valid JSON').toBe(0);
    expect(ajvVerdict(file)).toBe('invalid');
  });
}
