import nx from '@nx/eslint-plugin';
import angular from 'angular-eslint';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** Who may import the CiviCRM fake: two blocks name it, since a later block's rule replaces an earlier one's. */
const CIVICRM_FAKE_IMPORTS = {
  group: ['@checkin/civicrm-fake', '@checkin/civicrm-fake/*'],
  message: 'Only crm/in-memory, crm/emulator and tests import the CiviCRM fake.',
};

export default tseslint.config(
  {
    ignores: ['**/dist', '**/node_modules', '**/.nx', '**/.angular', 'assets/**', 'tmp/**'],
  },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            // The CiviCRM fake (libs/civicrm-fake) is for the back end's stub wiring, its
            // emulator entry point and its tests; the front end and the contract never see it.
            {
              sourceTag: 'scope:backend',
              onlyDependOnLibsWithTags: ['scope:shared', 'scope:civicrm-fake'],
            },
            { sourceTag: 'scope:frontend', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:civicrm-fake', onlyDependOnLibsWithTags: ['scope:shared'] },
          ],
        },
      ],
    },
  },
  {
    // Nest resolves constructor parameters through emitted decorator metadata: a type-only
    // import of an injected class would erase it.
    files: ['backend/**/*.ts'],
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  {
    // Inside the back end, only the CRM module's stub wiring (crm/in-memory), the emulator entry
    // point (crm/emulator) and tests may reach the CiviCRM fake: features talk to CrmClient.
    files: ['backend/src/**/*.ts'],
    ignores: ['backend/src/app/crm/in-memory/**', 'backend/src/app/crm/emulator/**', '**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [CIVICRM_FAKE_IMPORTS],
        },
      ],
    },
  },
  {
    // docs/architecture.md, "The crm/ folder": features reach CiviCRM through the gateways of
    // crm/, never its client or query helpers (the APIv4 strings themselves: crm/crm-boundary.spec.ts).
    // This block repeats the fake's pattern because a later block's rule replaces an earlier one.
    files: ['backend/src/app/**/*.ts'],
    ignores: ['backend/src/app/crm/**', '**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            CIVICRM_FAKE_IMPORTS,
            {
              group: [
                '**/crm/crm-client',
                '**/crm/civicrm-http.client',
                '**/crm/crm-call-batcher',
                '**/crm/check-in-filter',
                '**/crm/check-in-values',
                '**/crm/crm-rows',
                '**/crm/crm-values',
              ],
              message:
                'Features read and write through the gateways of crm/ (*.gateway.ts), not its client or query helpers.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['frontend/**/*.ts'],
    extends: [...angular.configs.tsRecommended],
    processor: angular.processInlineTemplates,
    rules: {
      '@angular-eslint/prefer-on-push-component-change-detection': 'error',
      '@angular-eslint/component-selector': [
        'error',
        { type: 'element', prefix: 'app', style: 'kebab-case' },
      ],
      '@angular-eslint/directive-selector': [
        'error',
        { type: 'attribute', prefix: 'app', style: 'camelCase' },
      ],
    },
  },
  {
    // A page folder never imports another page's folder: what two pages share lives in
    // frontend/src/app/shared (or core), so one page can change without breaking another.
    files: ['frontend/src/app/form/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../report/*', '../../report/*', '../staff/*', '../../staff/*'],
              message: 'Pages do not import each other; move what they share to frontend/src/app/shared.',
            },
          ],
        },
      ],
    },
  },
  {
    // A page folder never imports another page's folder: what two pages share lives in
    // frontend/src/app/shared (or core), so one page can change without breaking another.
    files: ['frontend/src/app/report/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../form/*', '../../form/*', '../staff/*', '../../staff/*'],
              message: 'Pages do not import each other; move what they share to frontend/src/app/shared.',
            },
          ],
        },
      ],
    },
  },
  {
    // A page folder never imports another page's folder: what two pages share lives in
    // frontend/src/app/shared (or core), so one page can change without breaking another.
    files: ['frontend/src/app/staff/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../form/*', '../../form/*', '../report/*', '../../report/*'],
              message: 'Pages do not import each other; move what they share to frontend/src/app/shared.',
            },
          ],
        },
      ],
    },
  },
  {
    // The shared folder serves every page, so it imports none of them.
    files: ['frontend/src/app/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../form/*', '../report/*', '../staff/*'],
              message: 'frontend/src/app/shared serves the pages and imports none of them.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['frontend/**/*.html'],
    extends: [...angular.configs.templateRecommended, ...angular.configs.templateAccessibility],
  },
  {
    files: ['**/*.spec.ts', 'e2e/**/*.ts', 'backend/test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // The browser suites start the built service with the back end's own demo data and read its
    // sources by path: a test harness of the whole repository, not a project others import.
    files: ['e2e/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
);
