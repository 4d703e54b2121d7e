import { AppShell } from '@mantine/core';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { TOP_BAR_HEIGHT } from '../constants';
import { TopBar } from './TopBar';

interface AppLayoutProps {
  /** The page; the matched child route when absent. */
  readonly children?: ReactNode;
}

/** The application shell around every authenticated page: the top bar and the page below it. */
export function AppLayout({ children }: AppLayoutProps) {
  return (
    <AppShell header={{ height: TOP_BAR_HEIGHT }} padding="xl">
      <AppShell.Header>
        <TopBar />
      </AppShell.Header>
      <AppShell.Main>{children ?? <Outlet />}</AppShell.Main>
    </AppShell>
  );
}
