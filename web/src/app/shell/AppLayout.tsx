import { AppShell } from '@mantine/core';
import { Outlet, useLocation } from 'react-router-dom';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { TOP_BAR_HEIGHT } from '../constants';
import classes from './AppLayout.module.css';
import { TopBar } from './TopBar';

/**
 * The application shell around every authenticated page: the top bar and the page below it. A page that fails
 * to render is contained there until the path changes.
 */
export function AppLayout() {
  const { pathname } = useLocation();
  return (
    <AppShell header={{ height: TOP_BAR_HEIGHT }} padding={{ base: 'md', sm: 'xl' }}>
      <AppShell.Header>
        <TopBar />
      </AppShell.Header>
      <AppShell.Main className={classes.main}>
        <ErrorBoundary key={pathname}>
          <Outlet />
        </ErrorBoundary>
      </AppShell.Main>
    </AppShell>
  );
}
