import { createTheme, type MantineColorsTuple } from '@mantine/core';

// Tawny amber, the colour of a caracal's coat: the product's accent on a cool, dark slate.
const caracal: MantineColorsTuple = [
  '#fff6e6',
  '#ffebcc',
  '#fdd59b',
  '#fbbd64',
  '#f9a937',
  '#f89c1a',
  '#f8950a',
  '#dd8100',
  '#c47100',
  '#aa6000',
];

const slate: MantineColorsTuple = [
  '#c9ced8',
  '#aab1bf',
  '#8a93a5',
  '#5f6879',
  '#3a4150',
  '#2a303c',
  '#1f2430',
  '#181c26',
  '#12161f',
  '#0c0f15',
];

export const theme = createTheme({
  primaryColor: 'caracal',
  primaryShade: { light: 7, dark: 6 },
  colors: { caracal, dark: slate },
  defaultRadius: 'md',
  fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
});
