// Lint: typescript-eslint's recommended rules, plus the few STYLE.md asks for.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'data/**', 'coverage/**'] },
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
    files: ['src/workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['../activities/*', '../db/*', 'node:*'], allowTypeImports: true, message: 'Workflows are deterministic: import activity types only, no I/O modules.' }] }],
      'no-restricted-syntax': ['error', { selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']", message: 'Use the workflow SDK uuid4() or deterministic state instead.' }],
    },
  },
);
