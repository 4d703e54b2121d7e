// The Investigate screens for AppRoutes, loaded on first visit (the search page carries Monaco and echarts).
import { Skeleton } from '@mantine/core';
import { lazy, Suspense, type ReactNode } from 'react';
import type { SearchPageProps } from './SearchPage';

const Search = lazy(() => import('./SearchPage').then((m) => ({ default: m.SearchPage })));
const Saved = lazy(() => import('./SavedSearchesPage').then((m) => ({ default: m.SavedSearchesPage })));
const History = lazy(() => import('./SearchHistoryPage').then((m) => ({ default: m.SearchHistoryPage })));
const Explorer = lazy(() => import('./DataExplorerPage').then((m) => ({ default: m.DataExplorerPage })));
const Indicator = lazy(() => import('./IndicatorSearchPage').then((m) => ({ default: m.IndicatorSearchPage })));

const wait = (page: ReactNode) => <Suspense fallback={<Skeleton h={400} radius="md" aria-label="Loading" />}>{page}</Suspense>;

export const SearchRoute = ({ view }: SearchPageProps) => wait(<Search view={view} />);
export const SavedSearchesRoute = () => wait(<Saved />);
export const SearchHistoryRoute = () => wait(<History />);
export const DataExplorerRoute = () => wait(<Explorer />);
export const IndicatorSearchRoute = () => wait(<Indicator />);
