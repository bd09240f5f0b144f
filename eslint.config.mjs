// Lint: ESLint's and typescript-eslint's recommended rules over src, test, scripts and bench.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import jest from 'eslint-plugin-jest';

/** An import that is neither relative nor decimal.js. */
const NOT_RELATIVE_BUT_DECIMAL = { regex: '^(?!\\.|decimal\\.js$)', message: 'src/law imports only itself and decimal.js.' };
/** A relative import leaving src/law (from `depth` folders below it). */
const outOfLaw = (depth) => ({ regex: `^(\\.\\./){${depth}}`, message: 'src/law imports only itself and decimal.js (it says what it finds as message keys and values; src/i18n gives them words).' });

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'coverage/**', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The layers (docs/ARCHITECTURE.md). src/law is the law: it imports only itself and decimal.js —
  // never the database, GraphQL, a service, nor the message catalogues (its findings and errors are
  // message keys and values, src/law/message.ts; src/i18n renders them where the answer is given).
  {
    files: ['src/law/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [NOT_RELATIVE_BUT_DECIMAL, outOfLaw(1)] }] },
  },
  {
    files: ['src/law/*/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [NOT_RELATIVE_BUT_DECIMAL, outOfLaw(2)] }] },
  },
  // src/graphql: resolvers call services; they import neither TypeORM nor the law's rules (types
  // only), and never pg nor src/database: SQL is sent by the services.
  {
    files: ['src/graphql/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [{ name: 'typeorm', allowTypeImports: true, message: 'src/graphql goes through services: no TypeORM at run time.' }],
        patterns: [
          { regex: '^typeorm/', allowTypeImports: true, message: 'src/graphql goes through services: no TypeORM at run time.' },
          { regex: '^pg(-[a-z-]+)?(/|$)', message: 'src/graphql sends no SQL: the services do (compiled reads: src/services/compiled-read.service.ts).' },
          { regex: '^(\\.\\./)+database(/|$)', message: 'src/graphql goes through services, never src/database.' },
          { regex: '^(\\.\\./)+law/(?!(types|decimal|dates|findings|errors)$)', allowTypeImports: true,
            message: 'Resolvers call services: the law\'s rules are the services\' to call (its vocabulary — types, decimal, dates, findings, errors — may be imported).' },
        ],
      }],
    },
  },
  // src/config reads the environment: it knows nothing of the HTTP server it configures.
  {
    files: ['src/config.ts', 'src/config/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ regex: '^\\./http(/|$)|^\\.\\./http(/|$)', message: 'src/config does not import src/http.' }] }] },
  },
  // The imports handle arrays as long as a file is (a ZIP's 128,700 items' audit records overflowed
  // the stack): no array is spread into a call's arguments there (push(...a), Math.max(...a)).
  {
    files: ['src/import/**/*.ts', 'scripts/import*.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: 'CallExpression > SpreadElement',
        message: 'An import\'s arrays are as long as its file: spread into a call, each element is an argument on the stack (RangeError past ~100,000). Loop instead.',
      }],
    },
  },
  {
    // Tests, benchmarks and scripts read loosely typed GraphQL responses.
    files: ['test/**', 'bench/**', 'scripts/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // Tests: none focused or skipped by hand (a skip is decided by a condition, visibly), and every
  // property runs through test/support/property.ts, which fixes its seed.
  {
    files: ['test/**/*.ts'],
    plugins: { jest },
    rules: {
      'jest/no-focused-tests': 'error',
      'jest/no-disabled-tests': 'error',
      'no-restricted-properties': ['error', { object: 'fc', property: 'assert', message: 'Use checkProperty (test/support/property.ts): a fixed seed, printed on failure.' }],
    },
  },
  {
    files: ['test/support/property.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', globalThis: 'readonly', Buffer: 'readonly', URL: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { process: 'readonly', require: 'readonly', __dirname: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
