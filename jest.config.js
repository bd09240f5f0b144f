/** Tests run TypeScript through swc (decorators and their metadata on); `tsc --noEmit` type-checks separately. */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
};

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // jose 6 ships ESM only: swc turns it into CommonJS for jest, like the project's own files.
  transform: { '^.+\\.ts$': ['@swc/jest', swc], '/node_modules/jose/.+\\.js$': ['@swc/jest', swc] },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  setupFiles: ['reflect-metadata'],
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  testTimeout: 60000,
  maxWorkers: process.env.CI ? 2 : '50%',
};
