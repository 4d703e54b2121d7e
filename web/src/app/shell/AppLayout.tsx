import { AppShell } from '@mantine/core';
import { Outlet } from 'react-router-dom';
import { TOP_BAR_HEIGHT } from '../constants';
import classes from './AppLayout.module.css';
import { TopBar } from './TopBar';

/** The application shell around every authenticated page: the top bar and the page below it. */
export function AppLayout() {
  return (
    <AppShell header={{ height: TOP_BAR_HEIGHT }} padding={{ base: 'md', sm: 'xl' }}>
      <AppShell.Header>
        <TopBar />
      </AppShell.Header>
      <AppShell.Main className={classes.main}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
