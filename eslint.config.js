// ESLint: TypeScript everywhere, React hooks rules in the web app.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.local/',
      '.test-artifacts/',
      '.scratch/',
      'cdk.out/',
      'web/dist/',
      'functions/lib/graphql-types.ts',
      'web/src/lib/graphql/types.ts',
      '**/__pycache__/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'tests/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Paths come from web/src/app/routes.ts, which encodes what it is given: none is written by hand.
    files: ['web/src/**/*.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'JSXAttribute[name.name=/^(to|path)$/] > Literal[value=/^\\//]',
          'JSXAttribute[name.name=/^(to|path)$/] > JSXExpressionContainer > :matches(TemplateLiteral, BinaryExpression)',
          "CallExpression[callee.name='navigate'] > :matches(TemplateLiteral, BinaryExpression, Literal[value=/^\\//]).arguments:first-child",
        ].map((selector) => ({ selector, message: 'Build paths with web/src/app/routes.ts, not by hand.' })),
      ],
    },
  },
);
