import { AppShell, Box } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { ErrorPage } from '../errors/ErrorPage';
import {
  SIDE_NAVIGATION_ANIMATION_MS,
  SIDE_NAVIGATION_COLLAPSED_WIDTH,
  SIDE_NAVIGATION_EXPANDED_WIDTH,
  SIDE_NAVIGATION_STORAGE_KEY,
  TOP_BAR_HEIGHT,
} from '../constants';
import { ErrorStatusListener, statusCodeOf } from '../errorStatus';
import classes from './AppLayout.module.css';
import { BreadcrumbLabelsProvider } from './breadcrumbLabels';
import { CONTENT_MAX_WIDTH, contentWidthFor } from './contentWidth';
import { SideNavigation } from './SideNavigation';
import { TopBar } from './TopBar';

/**
 * The application shell around every authenticated page: the top bar, the side navigation and the page. The
 * page gives way to an error page while the location holds a status code; a page that fails to render is
 * contained until the path changes.
 */
export function AppLayout() {
  const location = useLocation();
  const [expanded, setExpanded] = useLocalStorage({
    key: SIDE_NAVIGATION_STORAGE_KEY,
    defaultValue: true,
    getInitialValueInEffect: false,
  });
  const [hovered, setHovered] = useState(false);
  const wide = expanded || hovered;
  const statusCode = statusCodeOf(location.state);

  return (
    <BreadcrumbLabelsProvider>
      <AppShell
        header={{ height: TOP_BAR_HEIGHT }}
        navbar={{ width: expanded ? SIDE_NAVIGATION_EXPANDED_WIDTH : SIDE_NAVIGATION_COLLAPSED_WIDTH, breakpoint: 0 }}
        padding={{ base: 'md', sm: 'xl' }}
        transitionDuration={SIDE_NAVIGATION_ANIMATION_MS}
      >
        <ErrorStatusListener />
        <AppShell.Header>
          <TopBar />
        </AppShell.Header>
        <AppShell.Navbar
          className={classes.navbar}
          aria-label="Main navigation"
          data-expanded={expanded || undefined}
          data-peek={(!expanded && hovered) || undefined}
          style={{ '--side-navigation-wide-width': `${SIDE_NAVIGATION_EXPANDED_WIDTH}px` }}
          onMouseEnter={() => setHovered(true)}
          onMouseLeave={() => setHovered(false)}
        >
          <SideNavigation expanded={expanded} wide={wide} onToggle={() => setExpanded(!expanded)} />
        </AppShell.Navbar>
        <AppShell.Main className={classes.main}>
          <Box maw={CONTENT_MAX_WIDTH[contentWidthFor(location.pathname)]} mx="auto">
            {statusCode !== undefined ? (
              <ErrorPage status={statusCode} />
            ) : (
              <ErrorBoundary key={location.pathname}>
                <Outlet />
              </ErrorBoundary>
            )}
          </Box>
        </AppShell.Main>
      </AppShell>
    </BreadcrumbLabelsProvider>
  );
}
