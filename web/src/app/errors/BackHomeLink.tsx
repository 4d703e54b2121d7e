import { Button } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { Permission } from '../../../../core/permissions';
import { HOME_PATH } from '../routes';
import { Can } from '../../lib/permissions';

/** Going home from an error page is offered only to users who may read the overview: home would refuse anyone else. */
export const BACK_HOME_PERMISSIONS: readonly Permission[] = ['SummaryRead'];

interface BackHomeLinkProps {
  readonly label?: string;
}

export function BackHomeLink({ label = 'Back to Home' }: BackHomeLinkProps) {
  return (
    <Can permissions={BACK_HOME_PERMISSIONS}>
      <Button component={Link} to={HOME_PATH}>
        {label}
      </Button>
    </Can>
  );
}
