// Full-page content width by page (§2.3): search extra large; dashboards, detections and configure large;
// the investigate home and the data explorer medium. The widths follow the specification's breakpoints.

export type ContentWidth = 'medium' | 'large' | 'extraLarge' | 'full';

export const CONTENT_MAX_WIDTH: Readonly<Record<ContentWidth, number | '100%'>> = {
  medium: 980,
  large: 1500,
  extraLarge: 1648,
  full: '100%',
};

/** Longest path prefix first: the first match decides. */
const WIDTH_BY_PATH: readonly (readonly [string, ContentWidth])[] = [
  ['/investigate/search/', 'extraLarge'],
  ['/investigate/data-explorer/', 'medium'],
  ['/dashboard/', 'large'],
  ['/build/detections/', 'large'],
  ['/configure/', 'large'],
];

const INVESTIGATE_HOME = '/investigate/';

/** The content width of the page at `pathname`; pages the specification does not name are large. */
export function contentWidthFor(pathname: string): ContentWidth {
  const path = pathname.endsWith('/') ? pathname : `${pathname}/`;
  if (path === INVESTIGATE_HOME) return 'medium';
  return WIDTH_BY_PATH.find(([prefix]) => path.startsWith(prefix))?.[1] ?? 'large';
}
