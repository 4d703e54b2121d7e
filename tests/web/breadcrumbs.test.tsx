// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { Link, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { BreadcrumbLabelsProvider, useBreadcrumbLabel } from '../../web/src/app/shell/breadcrumbLabels';
import { Breadcrumbs } from '../../web/src/app/shell/Breadcrumbs';
import { breadcrumbsFor, collapseCrumbs } from '../../web/src/app/shell/breadcrumbs';
import { renderInApp } from './support/render';

afterEach(cleanup);

describe('breadcrumbs from the route', () => {
  it('name sections and pages after the navigation, and other segments after themselves', () => {
    expect(breadcrumbsFor('/configure/log-sources/abc-123/edit/')).toEqual([
      { label: 'Configure' },
      { label: 'Log Sources', path: '/configure/log-sources/' },
      { label: 'abc-123', path: '/configure/log-sources/abc-123/' },
      { label: 'Edit', path: '/configure/log-sources/abc-123/edit/' },
    ]);
    expect(breadcrumbsFor('/settings/api/tokens/new/')).toEqual([
      { label: 'Settings' },
      { label: 'API' },
      { label: 'API Tokens', path: '/settings/api/tokens/' },
      { label: 'New', path: '/settings/api/tokens/new/' },
    ]);
    expect(breadcrumbsFor('/support')).toEqual([{ label: 'Support', path: '/support/' }]);
    expect(breadcrumbsFor('/configure/log-sources/add-new-source/')[2]).toEqual({
      label: 'Add New Sources',
      path: '/configure/log-sources/add-new-source/',
    });
    expect(breadcrumbsFor('/investigate/dashboard-widget-search/')[1]).toEqual({
      label: 'Search',
      path: '/investigate/dashboard-widget-search/',
    });
    expect(breadcrumbsFor('/')).toEqual([]);
  });

  it('name the detection sections in words, not their slugs', () => {
    expect(breadcrumbsFor('/build/detections/correlation-rules/Corr.One/edit/').map((c) => c.label)).toEqual([
      'Build',
      'Detections',
      'Correlation Rules',
      'Corr.One',
      'Edit',
    ]);
    expect(breadcrumbsFor('/build/detections/rules/A/')[2]?.label).toBe('Rules');
    expect(breadcrumbsFor('/build/detections/policies/A/')[2]?.label).toBe('Policies');
  });

  it('decode segments, and keep a malformed one as it is', () => {
    expect(breadcrumbsFor('/configure/schemas/Custom.My%20Logs/')[2]?.label).toBe('Custom.My Logs');
    expect(breadcrumbsFor('/configure/schemas/%E0%A4%A/')[2]?.label).toBe('%E0%A4%A');
    expect(breadcrumbsFor('/configure/log-sources/abc/schemas/').map((c) => c.label)).toEqual([
      'Configure',
      'Log Sources',
      'abc',
      'Schemas',
    ]);
  });

  it('collapse above three crumbs to the first, the hidden middle and the last two', () => {
    const three = breadcrumbsFor('/configure/log-sources/abc/');
    expect(collapseCrumbs(three)).toEqual({ collapsed: false, crumbs: three });
    const five = breadcrumbsFor('/configure/log-sources/abc/schemas/edit/');
    expect(collapseCrumbs(five)).toEqual({
      collapsed: true,
      first: five[0],
      hidden: [five[1], five[2]],
      last: [five[3], five[4]],
    });
  });
});

describe('the breadcrumbs bar', () => {
  it('shows every crumb of a short path, the last as the current page', () => {
    renderInApp(<Breadcrumbs />, { at: '/configure/log-sources/abc/' });
    const bar = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    expect(within(bar).getByText('Configure')).toBeTruthy();
    expect(within(bar).getByRole('link', { name: 'Log Sources' }).getAttribute('href')).toBe('/configure/log-sources/');
    expect(within(bar).getByText('abc').getAttribute('aria-current')).toBe('page');
    expect(within(bar).queryByRole('button')).toBeNull();
  });

  it('hides the middle of a deep path behind a toggle that shows and hides it', () => {
    renderInApp(<Breadcrumbs />, { at: '/configure/log-sources/abc/schemas/edit/' });
    const bar = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    expect(within(bar).getByText('Configure')).toBeTruthy();
    expect(within(bar).queryByText('Log Sources')).toBeNull();
    expect(within(bar).queryByText('abc')).toBeNull();
    expect(within(bar).getByRole('link', { name: 'Schemas' })).toBeTruthy();
    expect(within(bar).getByText('Edit').getAttribute('aria-current')).toBe('page');

    fireEvent.click(within(bar).getByRole('button', { name: 'Show the full path' }));
    expect(within(bar).getByRole('link', { name: 'Log Sources' })).toBeTruthy();
    expect(within(bar).getByRole('link', { name: 'abc' })).toBeTruthy();

    fireEvent.click(within(bar).getByRole('button', { name: 'Hide the middle of the path' }));
    expect(within(bar).queryByText('Log Sources')).toBeNull();
  });

  it('is empty on the home page', () => {
    renderInApp(<Breadcrumbs />, { at: '/' });
    expect(screen.queryByRole('navigation', { name: 'Breadcrumbs' })).toBeNull();
  });
});

describe('a crumb a page names', () => {
  function LogSourceDetails() {
    useBreadcrumbLabel('AWS CloudTrail (prod)');
    return <Link to="/configure/log-sources/">Back to the list</Link>;
  }

  it('shows the name the page gives for as long as the page shows', async () => {
    renderInApp(
      <BreadcrumbLabelsProvider>
        <Breadcrumbs />
        <Routes>
          <Route path="/configure/log-sources/:id/" element={<LogSourceDetails />} />
          <Route path="/configure/log-sources/" element={<p>List</p>} />
        </Routes>
      </BreadcrumbLabelsProvider>,
      { at: '/configure/log-sources/9f1c2a7e/' },
    );
    const bar = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    expect((await within(bar).findByText('AWS CloudTrail (prod)')).getAttribute('aria-current')).toBe('page');
    expect(within(bar).queryByText('9f1c2a7e')).toBeNull();
    expect(
      breadcrumbsFor('/configure/log-sources/9f1c2a7e/', new Map([['/configure/log-sources/9f1c2a7e/', 'Prod']]))[2],
    ).toEqual({
      label: 'Prod',
      path: '/configure/log-sources/9f1c2a7e/',
    });

    fireEvent.click(screen.getByText('Back to the list'));
    expect(await screen.findByText('List')).toBeTruthy();
    expect(within(bar).queryByText('AWS CloudTrail (prod)')).toBeNull();
  });
});
