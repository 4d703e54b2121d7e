import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useState, type ComponentType, type ReactNode } from 'react';
import { DOCUMENTATION_URL, PROJECT_URL } from '../../app/constants';
import { usePageTitle } from '../../app/usePageTitle';
import { useWebConfig } from '../../app/webConfig';
import { AlertIcon, ExternalLinkIcon, HelpIcon, MessageIcon, ShieldIcon } from '../../components/icons';
import { FeedbackModal } from '../../features/feedback/FeedbackModal';
import { useSendFeedback } from './useSendFeedback';

interface SupportLink {
  readonly title: string;
  readonly description: string;
  readonly href: string;
  readonly icon: ComponentType<{ readonly size?: number }>;
}

/** Where help lives: all of it is public, next to the code. */
export const SUPPORT_LINKS: readonly SupportLink[] = [
  {
    title: 'Documentation',
    description: 'Schemas, detections and the PantherFlow query language.',
    href: DOCUMENTATION_URL,
    icon: HelpIcon,
  },
  {
    title: 'Report a problem',
    description: 'Open an issue with what you did, what you expected and what happened.',
    href: `${PROJECT_URL}/issues`,
    icon: AlertIcon,
  },
  {
    title: 'Ask the community',
    description: 'Questions, ideas and detections to share.',
    href: `${PROJECT_URL}/discussions`,
    icon: MessageIcon,
  },
  {
    title: 'Report a vulnerability',
    description: 'Privately, as the security policy describes.',
    href: `${PROJECT_URL}/security/policy`,
    icon: ShieldIcon,
  },
];

function LinkCard({ link }: { readonly link: SupportLink }) {
  const Icon = link.icon;
  return (
    <Card withBorder padding="lg" component="a" href={link.href} target="_blank" rel="noopener noreferrer">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon variant="light" size="lg" radius="md">
          <Icon size={18} />
        </ThemeIcon>
        <div>
          <Group gap={6}>
            <Text fw={600}>{link.title}</Text>
            <ExternalLinkIcon size={12} />
          </Group>
          <Text size="sm" c="dimmed">
            {link.description}
          </Text>
        </div>
      </Group>
    </Card>
  );
}

function Fact({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    <Group gap="xs">
      <Text size="sm" c="dimmed" w={80}>
        {label}
      </Text>
      <Text size="sm" ff="monospace">
        {children}
      </Text>
    </Group>
  );
}

/** Support: the product's help links, the details a report needs, and Send Feedback. */
export function SupportPage() {
  usePageTitle('Support');
  const { version, stage, region } = useWebConfig();
  const [feedbackOpened, setFeedbackOpened] = useState(false);
  const sendFeedback = useSendFeedback();

  return (
    <Stack gap="xl">
      <div>
        <Title order={2}>Support</Title>
        <Text c="dimmed" mt={4}>
          Caracal is open source: its documentation, issue tracker and community live with the code.
        </Text>
      </div>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        {SUPPORT_LINKS.map((link) => (
          <LinkCard key={link.title} link={link} />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder padding="lg">
          <Title order={4} mb="sm">
            When you report a problem
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            Include these details of this deployment:
          </Text>
          <Stack gap={4}>
            <Fact label="Version">{version}</Fact>
            <Fact label="Stage">{stage}</Fact>
            <Fact label="Region">{region}</Fact>
          </Stack>
        </Card>
        <Card withBorder padding="lg">
          <Title order={4} mb="sm">
            Send Feedback
          </Title>
          <Text size="sm" c="dimmed" mb="md">
            Tell the team what works for you and what gets in your way.{' '}
            <Anchor href={`${PROJECT_URL}/issues`} target="_blank" rel="noopener noreferrer" size="sm">
              Bugs go to the issue tracker.
            </Anchor>
          </Text>
          <Button leftSection={<MessageIcon size={16} />} onClick={() => setFeedbackOpened(true)}>
            Send Feedback
          </Button>
        </Card>
      </SimpleGrid>
      <FeedbackModal opened={feedbackOpened} onClose={() => setFeedbackOpened(false)} onSend={sendFeedback} />
    </Stack>
  );
}
