import { Button } from '@mantine/core';
import { Link } from 'react-router-dom';
import { HOME_PATH } from '../../app/constants';
import { usePageTitle } from '../../app/usePageTitle';
import { StatusPage } from '../../components/StatusPage';

/** Any unknown path. Only signed-in users reach it, and every one of them can see the home page. */
export function NotFoundPage() {
  usePageTitle('Not Found');
  return (
    <StatusPage code="404" title="Not Found" description="Not all who wander are lost...">
      <Button component={Link} to={HOME_PATH}>
        Back to Home
      </Button>
    </StatusPage>
  );
}
