import { describe, expect, it } from 'vitest';
import { PERMISSIONS, type Permission } from '../../core/permissions';
import {
  activeLinkPath,
  NAVIGATION,
  navigationLinks,
  visibleNavigation,
  type NavigationEntry,
} from '../../web/src/app/shell/navigation';

/** The whole model as if every area existed, to check the specification's visibility rules. */
const everyAreaBuilt: NavigationEntry[] = NAVIGATION.map((entry) =>
  entry.kind === 'link' ? { ...entry, built: true } : { ...entry, links: entry.links.map((link) => ({ ...link, built: true })) },
);

function labels(held: Permission[], entries: readonly NavigationEntry[] = everyAreaBuilt): string[] {
  return visibleNavigation(held, entries).flatMap((entry) =>
    entry.kind === 'link' ? [entry.label] : [entry.label, ...entry.links.map((link) => `${entry.label} > ${link.label}`)],
  );
}

describe('the side navigation model', () => {
  it('lists the specification entries in order', () => {
    expect(labels([...PERMISSIONS])).toEqual([
      'Dashboards',
      'Alerts',
      'Investigate',
      'Investigate > Search',
      'Investigate > Data Explorer',
      'Investigate > Saved Searches',
      'Investigate > Search History',
      'Investigate > Cloud Resources',
      'Build',
      'Build > Detections',
      'Build > Helpers',
      'Build > Data Models',
      'Build > Packs',
      'Configure',
      'Configure > Log Sources',
      'Configure > Cloud Accounts',
      'Configure > Alert Destinations',
      'Configure > Schemas',
      'Configure > Lookup Tables',
      'Configure > Enrichment Providers',
    ]);
  });

  it('shows nothing without permissions', () => {
    expect(labels([])).toEqual([]);
  });

  it.each<[string, Permission[], string[]]>([
    ['alert read', ['AlertRead'], ['Dashboards', 'Alerts']],
    ['alert modify', ['AlertModify'], ['Alerts']],
    [
      'data analytics read',
      ['DataAnalyticsRead'],
      [
        'Investigate',
        'Investigate > Search',
        'Investigate > Data Explorer',
        'Investigate > Saved Searches',
        'Investigate > Search History',
      ],
    ],
    [
      'data analytics and resource read',
      ['DataAnalyticsRead', 'ResourceRead'],
      [
        'Investigate',
        'Investigate > Search',
        'Investigate > Data Explorer',
        'Investigate > Saved Searches',
        'Investigate > Search History',
        'Investigate > Cloud Resources',
      ],
    ],
    [
      'rule read',
      ['RuleRead'],
      ['Dashboards', 'Build', 'Build > Detections', 'Build > Helpers', 'Build > Data Models', 'Build > Packs'],
    ],
    [
      'policy modify',
      ['PolicyModify'],
      ['Dashboards', 'Build', 'Build > Detections', 'Build > Helpers', 'Build > Data Models', 'Build > Packs'],
    ],
    ['log source read', ['LogSourceRead'], ['Configure', 'Configure > Log Sources', 'Configure > Schemas']],
    ['cloud source modify', ['CloudsecSourceModify'], ['Configure', 'Configure > Cloud Accounts']],
    ['destination read', ['DestinationRead'], ['Configure', 'Configure > Alert Destinations']],
    ['lookup read', ['LookupRead'], ['Configure', 'Configure > Lookup Tables', 'Configure > Enrichment Providers']],
    ['summary read', ['SummaryRead'], ['Dashboards']],
    ['user modify only', ['UserModify', 'UserRead'], []],
  ])('with %s shows what the specification allows', (_name, held, expected) => {
    expect(labels(held)).toEqual(expected);
  });

  it('hides a group whose links are all hidden, even when the group itself is allowed', () => {
    expect(labels(['ResourceRead'])).toEqual([]);
  });

  it('shows an entry only once its area exists', () => {
    const onlyLogSources = NAVIGATION.map((entry) =>
      entry.kind === 'group'
        ? { ...entry, links: entry.links.map((link) => ({ ...link, built: link.path === '/configure/log-sources/' })) }
        : entry,
    );
    const onlyLogSourcesAndAlerts = onlyLogSources.map((entry) =>
      entry.kind === 'link' ? { ...entry, built: entry.label === 'Alerts' } : entry,
    );
    expect(labels([...PERMISSIONS], onlyLogSourcesAndAlerts)).toEqual(['Alerts', 'Configure', 'Configure > Log Sources']);
  });
});

describe('the active link', () => {
  const links = navigationLinks(everyAreaBuilt);

  it.each([
    ['/configure/log-sources/', '/configure/log-sources/'],
    ['/configure/log-sources/abc/edit/', '/configure/log-sources/'],
    ['/configure/log-sources', '/configure/log-sources/'],
    ['/investigate/resources/i-123/', '/investigate/resources/'],
    ['/investigate/search-history/', '/investigate/search-history/'],
    ['/configure/log-sourcesX/', undefined],
    ['/', undefined],
  ])('for %s is %s', (pathname, expected) => {
    expect(activeLinkPath(links, pathname)).toBe(expected);
  });

  it('prefers the longest matching prefix', () => {
    expect(activeLinkPath([{ path: '/a/' }, { path: '/a/b/' }], '/a/b/c/')).toBe('/a/b/');
  });
});
