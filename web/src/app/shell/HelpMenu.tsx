import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { Link } from 'react-router-dom';
import { ExternalLinkIcon, HelpIcon, MessageIcon } from '../../components/icons';
import { DOCUMENTATION_URL } from '../constants';
import { SUPPORT_PATH } from '../routes';

/** Where to get help: the Support page (with Send Feedback) and the documentation. */
export function HelpMenu() {
  return (
    <Menu position="bottom-end" width={220} shadow="md" withinPortal>
      <Menu.Target>
        <Tooltip label="Help">
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Help">
            <HelpIcon size={18} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to={SUPPORT_PATH} leftSection={<MessageIcon size={16} />}>
          Support
        </Menu.Item>
        <Menu.Item
          component="a"
          href={DOCUMENTATION_URL}
          target="_blank"
          rel="noopener noreferrer"
          leftSection={<HelpIcon size={16} />}
          rightSection={<ExternalLinkIcon size={12} />}
        >
          Documentation
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
