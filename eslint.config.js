// Lint: typescript-eslint's recommended rules, plus the few docs/ARCHITECTURE.md asks for.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'data/**', 'coverage/**', '.test-build/**', 'console/node_modules/**', 'console/dist/**', 'console/src/api-types.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read dynamic JSON bodies.
    files: ['test/**/*.ts', 'src/**/*.test.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // One-way layers (docs/ARCHITECTURE.md): features and the shared runtime never import the
    // entry points (api/, worker/, dev/), the activities composition root, the runtime opener, the
    // ORM entity registry (orm-entities.ts, which imports every feature), or workflow code (only
    // the workflows' *.contract.ts files). Import cycles: scripts/check-cycles.sh.
    files: ['src/**/*.ts'],
    ignores: ['src/api/**', 'src/worker/**', 'src/dev/**', 'src/workflows/**', 'src/activities/**', 'src/runtime.ts', 'src/orm-entities.ts', 'src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{
        regex: '^(\\./|(\\.\\./)+)((api|worker|dev|activities)/|(runtime|orm-entities)\\.js$|workflows/(?!.*\\.contract\\.js$))',
        message: 'Dependencies point down: entry points -> features -> shared runtime; features use workflow contracts (*.contract.ts) only.',
      }] }],
    },
  },
  {
    files: ['src/workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['../activities/*', '../db/*', 'node:*'], allowTypeImports: true, message: 'Workflows are deterministic: import activity types only, no I/O modules.' }] }],
      'no-restricted-syntax': ['error', { selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']", message: 'Use the workflow SDK uuid4() or deterministic state instead.' }],
    },
  },
);
