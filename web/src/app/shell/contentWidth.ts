// Full-page content width by page: search extra large; dashboards, detections and configure large; the
// investigate home and the data explorer medium, so wide tables get room and forms stay readable.
import { SECTION_PATHS, UNBUILT_PATHS } from '../routes';

export type ContentWidth = 'medium' | 'large' | 'extraLarge' | 'full';

export const CONTENT_MAX_WIDTH: Readonly<Record<ContentWidth, number | '100%'>> = {
  medium: 980,
  large: 1500,
  extraLarge: 1648,
  full: '100%',
};

/** Longest path prefix first: the first match decides. */
const WIDTH_BY_PATH: readonly (readonly [string, ContentWidth])[] = [
  [UNBUILT_PATHS.search, 'extraLarge'],
  [UNBUILT_PATHS.dataExplorer, 'medium'],
  [UNBUILT_PATHS.dashboard, 'large'],
  [SECTION_PATHS.build, 'large'],
  [SECTION_PATHS.configure, 'large'],
];

/** The content width of the page at `pathname`; pages not named above are large. */
export function contentWidthFor(pathname: string): ContentWidth {
  const path = pathname.endsWith('/') ? pathname : `${pathname}/`;
  if (path === SECTION_PATHS.investigate) return 'medium';
  return WIDTH_BY_PATH.find(([prefix]) => path.startsWith(prefix))?.[1] ?? 'large';
}
