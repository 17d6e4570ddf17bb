const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join } = require('node:path');
const { DefinePlugin } = require('webpack');
// Written from src/app/config/settings.ts by `npm run docs:settings`; a spec keeps the two equal.
const requiredCrmSettings = require('./src/app/config/required-crm-settings.json');

/**
 * A production build (NODE_ENV=production in the build's environment, as on the hosting
 * platform) refuses to build without the CRM settings the service needs to run (docs/product-rules.md,
 * "Production"), instead of shipping a bundle that cannot start.
 * There is no way around it: tests and CI build without NODE_ENV=production, and such a
 * bundle says so when started in production (BUILD_KIND below).
 */
function assertProductionSettings() {
  if (process.env.NODE_ENV !== 'production') return;
  const missing = requiredCrmSettings.filter((name) => !process.env[name]?.trim());
  if (missing.length > 0) {
    throw new Error(
      `Production build stopped: missing required CRM setting(s) ${missing.join(', ')}. ` +
        'Set them in the build environment (see README, Settings).',
    );
  }
}

assertProductionSettings();

/** 'production' only for a build whose settings were checked above; main.ts reads it. */
const BUILD_KIND = process.env.NODE_ENV === 'production' ? 'production' : 'development';

module.exports = {
  output: {
    path: join(__dirname, '../dist/backend'),
    clean: true,
    environment: { dynamicImport: true },
  },
  devtool: 'source-map',
  plugins: [
    new NxAppWebpackPlugin({
      target: 'node',
      compiler: 'tsc',
      main: './src/main.ts',
      tsConfig: './tsconfig.app.json',
      additionalEntryPoints: [
        { entryName: 'emulator', entryPath: './src/app/crm/emulator/emulator.main.ts' },
        { entryName: 'crm-schema', entryPath: './src/crm-schema.main.ts' },
      ],
      optimization: false,
      outputHashing: 'none',
      generatePackageJson: false,
      externalDependencies: 'all',
      mergeExternals: true,
      sourceMap: true,
    }),
    esmExternalsFirst({ 'file-type': 'import file-type' }),
    new DefinePlugin({ CHECKIN_BUILD_KIND: JSON.stringify(BUILD_KIND) }),
  ],
};

/**
 * file-type is ESM-only: keep `import('file-type')` a real dynamic import. The Nx plugin turns
 * every dependency into a CommonJS `require` external, so this mapping must be consulted first.
 */
function esmExternalsFirst(mapping) {
  return {
    apply(compiler) {
      const existing = compiler.options.externals;
      compiler.options.externals = [
        mapping,
        ...(Array.isArray(existing) ? existing : existing ? [existing] : []),
      ];
    },
  };
}
