import { Anchor, Breadcrumbs as MantineBreadcrumbs, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { ChevronRightIcon } from '../../components/icons';
import { useBreadcrumbLabels } from './breadcrumbLabels';
import { breadcrumbsFor, collapseCrumbs, type Crumb } from './breadcrumbs';
import classes from './Breadcrumbs.module.css';

/** Longest a crumb grows before it is cut with an ellipsis. */
const CRUMB_MAX_WIDTH = 220;

function CrumbItem({ crumb, current }: { readonly crumb: Crumb; readonly current: boolean }) {
  if (current || !crumb.path) {
    return (
      <Text
        size="sm"
        fw={current ? 600 : 400}
        c={current ? undefined : 'dimmed'}
        truncate
        maw={CRUMB_MAX_WIDTH}
        aria-current={current ? 'page' : undefined}
        style={current ? { flexShrink: 0 } : undefined}
      >
        {crumb.label}
      </Text>
    );
  }
  return (
    <Anchor component={Link} to={crumb.path} size="sm" c="dimmed" truncate maw={CRUMB_MAX_WIDTH} className={classes.link}>
      {crumb.label}
    </Anchor>
  );
}

/** Where the current page sits: from the route, the middle hidden behind a toggle when the path is deep. */
export function Breadcrumbs() {
  const { pathname } = useLocation();
  const [expandedFor, setExpandedFor] = useState<string | null>(null);
  const crumbs = breadcrumbsFor(pathname, useBreadcrumbLabels());
  if (crumbs.length === 0) return null;

  const view = collapseCrumbs(crumbs);
  const expanded = expandedFor === pathname;
  const last = crumbs.length - 1;
  const items = view.collapsed
    ? [
        <CrumbItem key="first" crumb={view.first} current={false} />,
        <UnstyledButton
          key="overflow"
          className={classes.overflow}
          aria-label={expanded ? 'Hide the middle of the path' : 'Show the full path'}
          aria-expanded={expanded}
          onClick={() => setExpandedFor(expanded ? null : pathname)}
        >
          …
        </UnstyledButton>,
        ...(expanded
          ? view.hidden.map((crumb, index) => <CrumbItem key={`hidden-${index}`} crumb={crumb} current={false} />)
          : []),
        ...view.last.map((crumb, index) => (
          <CrumbItem key={`last-${index}`} crumb={crumb} current={index === view.last.length - 1} />
        )),
      ]
    : crumbs.map((crumb, index) => <CrumbItem key={index} crumb={crumb} current={index === last} />);

  return (
    <nav aria-label="Breadcrumbs" className={classes.root}>
      <MantineBreadcrumbs separator={<ChevronRightIcon size={12} />} separatorMargin={6} className={classes.crumbs}>
        {items}
      </MantineBreadcrumbs>
    </nav>
  );
}
