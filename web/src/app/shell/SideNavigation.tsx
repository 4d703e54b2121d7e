import { NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { SidebarIcon } from '../../components/icons';
import { usePermissions } from '../../lib/permissions';
import {
  activeLinkPath,
  NAVIGATION,
  navigationLinks,
  visibleNavigation,
  type NavigationEntry,
  type NavigationGroup,
} from './navigation';
import classes from './SideNavigation.module.css';

const ICON_SIZE = 20;
/** Lines a group's links up with the group's label. */
const CHILDREN_OFFSET = 30;

interface GroupEntryProps {
  readonly group: NavigationGroup;
  readonly wide: boolean;
  readonly activePath: string | undefined;
}

/** A group of links: open at first, closed and opened by a click, opened again when the user lands on one of its pages. */
function GroupEntry({ group, wide, activePath }: GroupEntryProps) {
  const holdsActive = group.links.some((link) => link.path === activePath);
  const [opened, setOpened] = useState(true);
  const [lastActive, setLastActive] = useState(activePath);
  if (lastActive !== activePath) {
    setLastActive(activePath);
    if (holdsActive) setOpened(true);
  }
  const Icon = group.icon;
  return (
    <NavLink
      label={group.label}
      leftSection={<Icon size={ICON_SIZE} />}
      opened={wide && opened}
      onChange={setOpened}
      active={!wide && holdsActive}
      childrenOffset={CHILDREN_OFFSET}
      className={classes.entry}
      classNames={{ label: classes.label, children: classes.children }}
    >
      {group.links.map((link) => (
        <NavLink
          key={link.path}
          component={Link}
          to={link.path}
          label={link.label}
          active={link.path === activePath}
          aria-current={link.path === activePath ? 'page' : undefined}
          className={classes.entry}
          classNames={{ label: classes.label }}
        />
      ))}
    </NavLink>
  );
}

interface SideNavigationProps {
  /** The user's choice: expanded, or collapsed to icons. */
  readonly expanded: boolean;
  /** Labels show: expanded, or collapsed but hovered. */
  readonly wide: boolean;
  readonly onToggle: () => void;
  /** The navigation model; the product's own unless a test gives another. */
  readonly entries?: readonly NavigationEntry[];
}

/** What a user whose role opens no area reads in place of the navigation. */
export const NO_AREAS_NOTE =
  "Your role doesn't give you access to any area yet. Ask an administrator to give your role the permissions you need.";

/**
 * The product's areas the user may use, by permission, with the active one marked by path prefix; a user who
 * may use none is told whom to ask.
 */
export function SideNavigation({ expanded, wide, onToggle, entries: model = NAVIGATION }: SideNavigationProps) {
  const { pathname } = useLocation();
  const { permissions, loading } = usePermissions();
  const entries = visibleNavigation(permissions, model);
  const activePath = activeLinkPath(navigationLinks(entries), pathname);
  const toggleLabel = expanded ? 'Collapse navigation' : 'Expand navigation';

  return (
    <Stack gap={0} h="100%" justify="space-between">
      <ScrollArea type="never" className={classes.scroll}>
        <div>
          <Stack gap={2} p="xs">
            {entries.map((entry) => {
              if (entry.kind === 'group')
                return <GroupEntry key={entry.label} group={entry} wide={wide} activePath={activePath} />;
              const Icon = entry.icon;
              return (
                <NavLink
                  key={entry.path}
                  component={Link}
                  to={entry.path}
                  label={entry.label}
                  leftSection={<Icon size={ICON_SIZE} />}
                  active={entry.path === activePath}
                  aria-current={entry.path === activePath ? 'page' : undefined}
                  className={classes.entry}
                  classNames={{ label: classes.label }}
                />
              );
            })}
          </Stack>
          {!loading && entries.length === 0 && wide && (
            <Text size="sm" c="dimmed" px="md" py="xs" className={classes.note}>
              {NO_AREAS_NOTE}
            </Text>
          )}
        </div>
      </ScrollArea>
      <div className={classes.footer}>
        <NavLink
          component="button"
          label={toggleLabel}
          aria-label={toggleLabel}
          aria-pressed={expanded}
          leftSection={<SidebarIcon size={ICON_SIZE} />}
          onClick={onToggle}
          className={classes.entry}
          classNames={{ label: classes.label }}
        />
      </div>
    </Stack>
  );
}
