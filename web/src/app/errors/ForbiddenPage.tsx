import { usePageTitle } from '../usePageTitle';
import { StatusPage } from '../../components/StatusPage';
import { BackHomeLink } from './BackHomeLink';

/** 403: the page exists but the user's role does not allow it. */
export function ForbiddenPage() {
  usePageTitle('Permission Denied');
  return (
    <StatusPage
      code="403"
      title="Oops! You don't have the proper permissions to view this page."
      description="If you think this is an error, please contact your admin for assistance."
    >
      <BackHomeLink />
    </StatusPage>
  );
}
