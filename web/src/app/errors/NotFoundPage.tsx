import { usePageTitle } from '../usePageTitle';
import { StatusPage } from '../../components/StatusPage';
import { BackHomeLink } from './BackHomeLink';

/** Any unknown path, or a thing asked for that does not exist. */
export function NotFoundPage() {
  usePageTitle('Not Found');
  return (
    <StatusPage code="404" title="Not Found" description="Not all who wander are lost...">
      <BackHomeLink />
    </StatusPage>
  );
}
