// Leaving an editor with unsaved changes asks first. The app runs in a BrowserRouter (not a data router), so the
// router's useBlocker is not available: in-app navigations go through the navigator, which this hook wraps
// while there are unsaved changes, holding the navigation until Confirm. Reloading or closing the tab gets the
// browser's own warning (beforeunload).
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { UNSAFE_NavigationContext } from 'react-router-dom';

type Navigator = { push: (...args: unknown[]) => void; replace: (...args: unknown[]) => void };

/** While `when`, navigation waits for the modal's Confirm; `allow()` lets the next navigation through (after a save). */
export function useEditorLeaveGuard(when: boolean): { modal: ReactNode; allow: () => void } {
  const { navigator } = useContext(UNSAFE_NavigationContext) as unknown as { navigator: Navigator };
  const [pending, setPending] = useState<(() => void) | null>(null);
  const allowed = useRef(false);

  useEffect(() => {
    if (!when) return;
    allowed.current = false;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    const { push, replace } = navigator;
    navigator.push = (...args: unknown[]) => {
      if (allowed.current) return push(...args);
      setPending(() => () => push(...args));
    };
    navigator.replace = (...args: unknown[]) => {
      if (allowed.current) return replace(...args);
      setPending(() => () => replace(...args));
    };
    return () => {
      window.removeEventListener('beforeunload', warn);
      navigator.push = push;
      navigator.replace = replace;
    };
  }, [when, navigator]);

  const modal = (
    <Modal opened={pending !== null} onClose={() => setPending(null)} title={<Text fw={600}>Unsaved changes</Text>} centered>
      <Stack gap="lg">
        <Text size="sm">You have unsaved changes. Are you sure you want to leave this page? Your changes will be lost.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setPending(null)}>
            Cancel
          </Button>
          <Button
            color="red"
            onClick={() => {
              const go = pending;
              allowed.current = true;
              setPending(null);
              go?.();
            }}
          >
            Confirm
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
  return {
    modal,
    allow: () => {
      allowed.current = true;
    },
  };
}
