// Lint: ESLint's and typescript-eslint's recommended rules over src, test, scripts and bench.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** An import that is neither relative nor decimal.js. */
const NOT_RELATIVE_BUT_DECIMAL = { regex: '^(?!\\.|decimal\\.js$)', message: 'src/law imports only itself and decimal.js.' };
/** A relative import leaving src/law (from `depth` folders below it), but for the messages (src/i18n). */
const outOfLaw = (depth) => ({ regex: `^(\\.\\./){${depth}}(?!i18n$)`, message: 'src/law imports only itself, decimal.js and the messages (src/i18n).' });

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'coverage/**', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The layers (docs/ARCHITECTURE.md). src/law is the law: it imports only itself, decimal.js and
  // the message catalogue src/i18n (keyed text, no I/O) — never the database, GraphQL or a service.
  {
    files: ['src/law/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [NOT_RELATIVE_BUT_DECIMAL, outOfLaw(1)] }] },
  },
  {
    files: ['src/law/*/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [NOT_RELATIVE_BUT_DECIMAL, outOfLaw(2)] }] },
  },
  // src/graphql: resolvers call services; they import neither TypeORM nor the law's rules (types only).
  {
    files: ['src/graphql/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [{ name: 'typeorm', allowTypeImports: true, message: 'src/graphql goes through services: no TypeORM at run time.' }],
        patterns: [
          { regex: '^typeorm/', allowTypeImports: true, message: 'src/graphql goes through services: no TypeORM at run time.' },
          { regex: '^(\\.\\./)+law/(?!(types|decimal|dates|findings|errors)$)', allowTypeImports: true,
            message: 'Resolvers call services: the law\'s rules are the services\' to call (its vocabulary — types, decimal, dates, findings, errors — may be imported).' },
        ],
      }],
    },
  },
  {
    // Tests, benchmarks and scripts read loosely typed GraphQL responses.
    files: ['test/**', 'bench/**', 'scripts/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', globalThis: 'readonly', Buffer: 'readonly', URL: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
