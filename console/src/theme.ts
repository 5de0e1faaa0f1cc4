// The console's Mantine theme: Brook's teal, with the shades Mantine draws text and filled controls in (6 to 9)
// of teal, red and orange darkened, and the dimmed text darker, so that axe-core's contrast check (WCAG AA,
// 4.5:1) holds on light backgrounds; dark backgrounds use the lighter shades.
import { createTheme, DEFAULT_THEME, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

function darkened(name: 'teal' | 'red' | 'orange', shades: [string, string, string, string]): MantineColorsTuple {
  return [...DEFAULT_THEME.colors[name].slice(0, 6), ...shades] as unknown as MantineColorsTuple;
}

export const theme = createTheme({
  primaryColor: 'teal',
  primaryShade: { light: 7, dark: 7 },
  colors: {
    teal: darkened('teal', ['#087050', '#076a4c', '#066649', '#054d37']),
    red: darkened('red', ['#b02525', '#a51d1d', '#961919', '#7f1212']),
    orange: darkened('orange', ['#a8400d', '#9a3a0c', '#8a3a0b', '#7a320a']),
  },
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': '#5c636a' },
  dark: {},
});
