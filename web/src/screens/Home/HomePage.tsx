import { Card, Container, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@apollo/client/react';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { AccountCard } from '../../features/home/AccountCard';
import { DeploymentCard } from '../../features/home/DeploymentCard';
import { HOME_QUERY } from './home.operations';
import { SecurityCard } from '../../features/home/SecurityCard';

function HomeSkeleton() {
  return (
    <Stack gap="lg" aria-busy="true" aria-label="Loading your workspace">
      <Skeleton h={36} w="40%" />
      <Skeleton h={18} w="60%" />
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        {[0, 1, 2].map((card) => (
          <Card key={card} withBorder padding="lg">
            <Skeleton h={28} w="50%" mb="md" />
            <Skeleton h={14} mb="sm" />
            <Skeleton h={14} mb="sm" w="80%" />
            <Skeleton h={14} w="65%" />
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** The home page: who is signed in and which deployment they are in, read from the API. */
export function HomePage() {
  usePageTitle('Home');
  const { data, error, loading, refetch } = useQuery(HOME_QUERY, {
    fetchPolicy: 'cache-and-network',
    notifyOnNetworkStatusChange: true,
  });

  if (loading && !data) {
    return (
      <Container size="lg">
        <HomeSkeleton />
      </Container>
    );
  }
  if (error || !data) {
    return (
      <Container size="lg">
        <LoadFailure
          title="Couldn't load your workspace"
          message={describeApiError(error)}
          onRetry={() => void refetch()}
          retrying={loading}
        />
      </Container>
    );
  }

  const { me, appConfig } = data;
  return (
    <Container size="lg">
      <Stack gap="lg">
        <div>
          <Title order={2}>Welcome{me.givenName ? `, ${me.givenName}` : ''}</Title>
          <Text c="dimmed" mt={4}>
            You are signed in to Caracal {appConfig.stage} in {appConfig.region} as {me.email}.
          </Text>
        </div>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
          <AccountCard me={me} />
          <DeploymentCard appConfig={appConfig} />
          <SecurityCard appConfig={appConfig} />
        </SimpleGrid>
      </Stack>
    </Container>
  );
}
