import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';

// Names a page gives its own crumb: a details page shows the log source's name rather than its id.

interface BreadcrumbLabels {
  readonly labels: ReadonlyMap<string, string>;
  set(path: string, label: string): void;
  clear(path: string, label: string): void;
}

const NO_LABELS: BreadcrumbLabels = { labels: new Map(), set: () => undefined, clear: () => undefined };

const BreadcrumbLabelsContext = createContext<BreadcrumbLabels>(NO_LABELS);

/** The path as crumbs carry it: with a trailing slash. */
export function crumbPath(pathname: string): string {
  return pathname.endsWith('/') ? pathname : `${pathname}/`;
}

export function BreadcrumbLabelsProvider({ children }: { readonly children: ReactNode }) {
  const [labels, setLabels] = useState<ReadonlyMap<string, string>>(new Map());
  const set = useCallback((path: string, label: string) => setLabels((current) => new Map(current).set(path, label)), []);
  const clear = useCallback(
    (path: string, label: string) =>
      setLabels((current) => {
        if (current.get(path) !== label) return current;
        const next = new Map(current);
        next.delete(path);
        return next;
      }),
    [],
  );
  const value = useMemo(() => ({ labels, set, clear }), [labels, set, clear]);
  return <BreadcrumbLabelsContext.Provider value={value}>{children}</BreadcrumbLabelsContext.Provider>;
}

/**
 * Names the current page's crumb (for as long as the page shows), or with `levelsUp` an ancestor's (an edit
 * page names its entity's crumb: `/settings/roles/<id>/edit/` with levelsUp 1 names `/settings/roles/<id>/`);
 * undefined keeps the name from the route.
 */
export function useBreadcrumbLabel(label: string | undefined, levelsUp = 0): void {
  const { pathname } = useLocation();
  const { set, clear } = useContext(BreadcrumbLabelsContext);
  useEffect(() => {
    if (!label) return;
    const segments = crumbPath(pathname).split('/').filter(Boolean);
    const path = `/${segments.slice(0, segments.length - levelsUp).join('/')}/`;
    set(path, label);
    return () => clear(path, label);
  }, [pathname, label, levelsUp, set, clear]);
}

/** The names pages gave their crumbs, by path. */
export function useBreadcrumbLabels(): ReadonlyMap<string, string> {
  return useContext(BreadcrumbLabelsContext).labels;
}
