import { Button } from '@mantine/core';
import { Link } from 'react-router-dom';
import { HOME_PATH } from '../../app/constants';
import { StatusPage } from '../../components/StatusPage';

interface NotFoundPageProps {
  /** Offer the way back home: only to a signed-in user, who can see the home page. */
  readonly showBackToHome: boolean;
  readonly fullScreen?: boolean;
}

export function NotFoundPage({ showBackToHome, fullScreen }: NotFoundPageProps) {
  return (
    <StatusPage
      code="404"
      title="Not Found"
      description="Not all who wander are lost..."
      fullScreen={fullScreen}
    >
      {showBackToHome && (
        <Button component={Link} to={HOME_PATH} variant="light">
          Back to Home
        </Button>
      )}
    </StatusPage>
  );
}
