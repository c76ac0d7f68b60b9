import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/**
 * Colours that pass WCAG AA (4.5:1) as text and under white text (decision 0018). Mantine's stock
 * palettes keep their light shades; only the darkest two, which filled buttons, badges and coloured
 * text use, are darker where the stock ones fail: white on the stock green #40c057 is 2.36:1.
 */
const green: MantineColorsTuple = [
  '#ebfbee',
  '#d3f9d8',
  '#b2f2bb',
  '#8ce99a',
  '#69db7c',
  '#51cf66',
  '#40c057',
  '#37b24d',
  '#267a37', // hover of filled green: white 5.36:1
  '#1f6b2f', // filled green and green text: white 6.56:1, on green.1 5.72:1
];
const orange: MantineColorsTuple = [
  '#fff4e6',
  '#ffe8cc',
  '#ffd8a8',
  '#ffc078',
  '#ffa94d',
  '#ff922b',
  '#fd7e14',
  '#f76707',
  '#c2410c',
  '#a63a0b', // white 6.50:1, on orange.1 5.47:1
];
const yellow: MantineColorsTuple = [
  '#fff9db',
  '#fff3bf',
  '#ffec99',
  '#ffe066',
  '#ffd43b',
  '#fcc419',
  '#fab005',
  '#f59f00',
  '#9c6200',
  '#8f5a00', // white 5.78:1, on yellow.1 5.19:1
];
const teal: MantineColorsTuple = [
  '#e6fcf5',
  '#c3fae8',
  '#96f2d7',
  '#63e6be',
  '#38d9a9',
  '#20c997',
  '#12b886',
  '#0ca678',
  '#087f5b',
  '#0b6e50', // white 6.25:1, on teal.1 5.40:1
];

/**
 * A phone-sized screen: below Mantine's `sm` breakpoint (48em), where `hiddenFrom="sm"` hides, AppShell's
 * side menu becomes a drawer, tables become cards and notices sit at the top, below the top bar.
 */
export const PHONE_QUERY = '(max-width: 47.99em)';

export const theme = createTheme({
  primaryColor: 'green',
  // Shade 9 of every colour fills buttons and badges and colours text (red.9: white 5.46:1).
  primaryShade: { light: 9, dark: 8 },
  colors: { green, orange, yellow, teal },
  defaultRadius: 'md',
  // Plain objects, not `Table.ScrollContainer.extend(…)`: importing the components here would put Table,
  // ScrollArea and floating-ui (about 20 KiB brotli) in the first download of every page (decision 0016).
  components: {
    // Mantine greys a notice's message (gray.6, 3.32:1) when it has a title.
    Notification: { styles: { description: { color: 'var(--mantine-color-gray-7)' } } },
    // A table wider than the phone scrolls in its own frame, which keyboard users can focus and scroll.
    TableScrollContainer: { defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } } },
    // A button's words are never cut ("Choose from gall…", "Londa mu bifaan…"): a long label wraps and the
    // button grows, at 390 px too.
    Button: {
      styles: {
        root: { height: 'auto', minHeight: 'var(--button-height)' },
        inner: { paddingBlock: 4 },
        label: { whiteSpace: 'normal', overflow: 'visible', textAlign: 'center', lineHeight: 1.25 },
      },
    },
    // A status is never cut to "P…": a badge keeps its width in a squeezed cell and wraps if it must.
    Badge: {
      styles: {
        root: { flexShrink: 0, maxWidth: '100%', height: 'auto', minHeight: 'var(--badge-height)' },
        label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip', lineHeight: 1.25, paddingBlock: 2 },
      },
    },
  },
});

/** Grey helper text ("dimmed") at gray.7: 8.18:1 on white instead of gray.6's 3.32:1. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
