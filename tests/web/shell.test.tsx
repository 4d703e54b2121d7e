// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Permission } from '../../core/permissions';
import { SIDE_NAVIGATION_STORAGE_KEY } from '../../web/src/app/constants';
import { AppLayout } from '../../web/src/app/shell/AppLayout';
import { contentWidthFor, type ContentWidth } from '../../web/src/app/shell/contentWidth';
import { HelpMenu } from '../../web/src/app/shell/HelpMenu';
import { NAVIGATION, SETTINGS_MENU, type NavigationEntry } from '../../web/src/app/shell/navigation';
import { SettingsMenu } from '../../web/src/app/shell/SettingsMenu';
import { NO_AREAS_NOTE, SideNavigation } from '../../web/src/app/shell/SideNavigation';
import { EmptyResults } from '../../web/src/components/EmptyResults';
import { fakeAuth, signedInAs } from './support/render';
import { renderWithApi } from './support/shell';

beforeEach(() => localStorage.clear());
afterEach(cleanup);

const nothingBuilt: NavigationEntry[] = NAVIGATION.map((entry) =>
  entry.kind === 'link'
    ? { ...entry, built: false }
    : { ...entry, links: entry.links.map((link) => ({ ...link, built: false })) },
);

const everyAreaBuilt: NavigationEntry[] = NAVIGATION.map((entry) =>
  entry.kind === 'link' ? { ...entry, built: true } : { ...entry, links: entry.links.map((link) => ({ ...link, built: true })) },
);

function Navigation({ at, permissions }: { at: string; permissions: Permission[] }) {
  function Harness() {
    const [expanded, setExpanded] = useState(true);
    return (
      <nav aria-label="Main navigation">
        <SideNavigation expanded={expanded} wide={expanded} onToggle={() => setExpanded(!expanded)} entries={everyAreaBuilt} />
      </nav>
    );
  }
  return renderWithApi(<Harness />, { at, permissions });
}

const mainNavigation = () => screen.getByRole('navigation', { name: 'Main navigation' });

describe('the side navigation', () => {
  it('shows the areas the user may use and marks the active one by path prefix', async () => {
    Navigation({ at: '/configure/log-sources/abc/edit/', permissions: ['LogSourceRead', 'AlertRead'] });
    const nav = mainNavigation();
    const logSources = await within(nav).findByRole('link', { name: 'Log Sources' });
    expect(logSources.getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'Schemas' }).getAttribute('aria-current')).toBeNull();
    expect(within(nav).getByRole('link', { name: 'Alerts' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Dashboards' })).toBeTruthy();
    expect(within(nav).queryByText('Investigate')).toBeNull();
    expect(within(nav).queryByText('Detections')).toBeNull();
    expect(within(nav).queryByRole('link', { name: 'Cloud Accounts' })).toBeNull();
  });

  it('shows groups open, and closes and opens one on a click', async () => {
    Navigation({ at: '/configure/schemas/', permissions: ['LogSourceRead', 'DataAnalyticsRead'] });
    const nav = mainNavigation();
    expect(await within(nav).findByRole('link', { name: 'Schemas' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Data Explorer' })).toBeTruthy();
    fireEvent.click(within(nav).getByText('Investigate'));
    await waitFor(() => expect(within(nav).queryByRole('link', { name: 'Data Explorer' })).toBeNull());
    fireEvent.click(within(nav).getByText('Investigate'));
    expect(await within(nav).findByRole('link', { name: 'Data Explorer' })).toBeTruthy();
  });

  it('tells a user whose role opens no area to ask an administrator', async () => {
    Navigation({ at: '/', permissions: [] });
    expect(await within(mainNavigation()).findByText(NO_AREAS_NOTE)).toBeTruthy();
    expect(NO_AREAS_NOTE).toMatch(/Ask an administrator/);
  });

  it('shows no area that does not exist yet', async () => {
    renderWithApi(
      <nav aria-label="Main navigation">
        <SideNavigation expanded wide onToggle={() => undefined} entries={nothingBuilt} />
      </nav>,
      { permissions: ['AlertRead'] },
    );
    await screen.findByRole('button', { name: 'Collapse navigation' });
    expect(within(mainNavigation()).queryByRole('link', { name: 'Alerts' })).toBeNull();
  });
});

function renderLayout() {
  return renderWithApi(
    <Routes>
      <Route element={<AppLayout />}>
        <Route path="/" element={<p>Home page</p>} />
      </Route>
    </Routes>,
    { auth: fakeAuth(signedInAs), permissions: ['SummaryRead'] },
  );
}

const navbar = () => screen.getByRole('navigation', { name: 'Main navigation' });

describe('the shell layout', () => {
  it('collapses and expands the navigation and remembers the choice', async () => {
    const view = renderLayout();
    await screen.findByText('Home page');
    expect(screen.getByRole('button', { name: 'Collapse navigation' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Collapse navigation' }));
    expect(localStorage.getItem(SIDE_NAVIGATION_STORAGE_KEY)).toBe('false');
    view.unmount();

    renderLayout();
    await screen.findByText('Home page');
    const toggle = screen.getByRole('button', { name: 'Expand navigation' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(toggle);
    expect(localStorage.getItem(SIDE_NAVIGATION_STORAGE_KEY)).toBe('true');
  });

  it('expands a collapsed navigation for as long as the pointer is over it', async () => {
    localStorage.setItem(SIDE_NAVIGATION_STORAGE_KEY, 'false');
    renderLayout();
    await screen.findByText('Home page');
    const bar = navbar();
    expect(bar.hasAttribute('data-peek')).toBe(false);
    fireEvent.mouseEnter(bar);
    expect(bar.hasAttribute('data-peek')).toBe(true);
    expect(screen.getByRole('button', { name: 'Expand navigation' })).toBeTruthy();
    fireEvent.mouseLeave(bar);
    expect(bar.hasAttribute('data-peek')).toBe(false);
  });
});

describe('the settings menu', () => {
  const everySettingBuilt = SETTINGS_MENU.map((entry) => ({ ...entry, built: true }));

  it.each<[string, Permission[], string[]]>([
    ['user read', ['UserRead'], ['Users', 'User Roles']],
    ['general settings read', ['GeneralSettingsRead'], ['General']],
    ['rule read', ['RuleRead'], ['General']],
    ['policy modify', ['PolicyModify'], ['General']],
    ['API token read', ['OrganizationApiTokenRead'], ['API Tokens', 'API Playground']],
    [
      'every permission',
      ['GeneralSettingsModify', 'UserModify', 'OrganizationApiTokenModify'],
      ['General', 'Users', 'User Roles', 'API Tokens', 'API Playground'],
    ],
  ])('with %s lists %j', async (_name, permissions, expected) => {
    renderWithApi(<SettingsMenu menu={everySettingBuilt} />, { permissions });
    fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(expected);
  });

  it('is absent without a settings permission', async () => {
    renderWithApi(
      <>
        <SettingsMenu menu={everySettingBuilt} />
        <p>rendered</p>
      </>,
      { permissions: ['AlertRead', 'LogSourceModify'] },
    );
    await screen.findByText('rendered');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('button', { name: 'Settings' })).toBeNull();
  });

  it('leads to each settings page', async () => {
    renderWithApi(<SettingsMenu menu={everySettingBuilt} />, { permissions: ['UserRead'] });
    fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
    expect((await screen.findByRole('menuitem', { name: 'User Roles' })).getAttribute('href')).toBe('/settings/roles/');
  });
});

describe('the help menu', () => {
  it('offers Support and the documentation, outside the app', async () => {
    renderWithApi(<HelpMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'Help' }));
    expect((await screen.findByRole('menuitem', { name: 'Support' })).getAttribute('href')).toBe('/support/');
    const documentation = screen.getByRole('menuitem', { name: 'Documentation' });
    expect(documentation.getAttribute('target')).toBe('_blank');
    expect(documentation.getAttribute('rel')).toContain('noopener');
  });
});

describe('page content', () => {
  it.each<[string, ContentWidth]>([
    ['/investigate/search/', 'extraLarge'],
    ['/investigate/', 'medium'],
    ['/investigate/data-explorer/', 'medium'],
    ['/dashboard/overview/', 'large'],
    ['/build/detections/abc/edit/', 'large'],
    ['/configure/log-sources/', 'large'],
    ['/configure/schemas', 'large'],
    ['/support/', 'large'],
  ])('%s is %s', (pathname, width) => {
    expect(contentWidthFor(pathname)).toBe(width);
  });

  it('says "No Results" when a list is empty, unless told otherwise', () => {
    renderWithApi(
      <>
        <EmptyResults description="Try another filter." />
        <EmptyResults title="No log sources yet" />
      </>,
    );
    expect(screen.getByText('No Results')).toBeTruthy();
    expect(screen.getByText('Try another filter.')).toBeTruthy();
    expect(screen.getByText('No log sources yet')).toBeTruthy();
  });
});
