import { ActionIcon, Tooltip, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { MoonIcon, SunIcon } from '../../components/icons';

/** Switches between the dark and the light theme; Mantine remembers the choice in local storage. */
export function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('dark');
  const next = scheme === 'dark' ? 'light' : 'dark';
  const label = `Switch to the ${next} theme`;
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color="gray" size="lg" aria-label={label} onClick={() => setColorScheme(next)}>
        {scheme === 'dark' ? <SunIcon size={18} /> : <MoonIcon size={18} />}
      </ActionIcon>
    </Tooltip>
  );
}
