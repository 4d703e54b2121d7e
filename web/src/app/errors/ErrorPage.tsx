import { usePageTitle } from '../usePageTitle';
import type { ErrorStatus } from '../../lib/apollo/apiErrors';
import { NotFoundPage } from './NotFoundPage';
import { ServerErrorPage } from './ServerErrorPage';
import { BackHomeLink } from './BackHomeLink';
import { FailedToFetchPage } from './FailedToFetchPage';
import { ForbiddenPage } from './ForbiddenPage';
import { STATUS_MESSAGES, StatusMessagePage, type MessageStatus } from './StatusMessagePage';

function InAppServerErrorPage() {
  usePageTitle('Something went wrong');
  return <ServerErrorPage action={<BackHomeLink label="Back to somewhere stable" />} />;
}

function isMessageStatus(status: number): status is MessageStatus {
  return status in STATUS_MESSAGES;
}

interface ErrorPageProps {
  readonly status: ErrorStatus;
}

/** The error page of a status: no answer, 404, 403, the statuses with a message of their own, else the server error page. */
export function ErrorPage({ status }: ErrorPageProps) {
  if (status === 'unknown') return <FailedToFetchPage />;
  if (status === 404) return <NotFoundPage />;
  if (status === 403) return <ForbiddenPage />;
  if (isMessageStatus(status)) return <StatusMessagePage status={status} />;
  return <InAppServerErrorPage />;
}
