import { createContext, useCallback, useContext, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { ErrorStatus } from '../lib/apollo/apiErrors';
import type { ErrorStatusChannel } from '../lib/apollo/errorStatusChannel';

// The error page to show is kept in the location state as `statusCode`, so it replaces the page at the same
// address and lasts until the path changes.

export interface ErrorLocationState {
  readonly statusCode?: ErrorStatus;
}

/** The status code kept in a location state, if it holds one. */
export function statusCodeOf(state: unknown): ErrorStatus | undefined {
  const code = (state as ErrorLocationState | null)?.statusCode;
  return code === 'unknown' || (typeof code === 'number' && Number.isInteger(code)) ? code : undefined;
}

/** Shows the error page of a status in place of the current page, keeping its address. */
export function useShowErrorPage(): (status: ErrorStatus) => void {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    (status: ErrorStatus) => {
      const state: ErrorLocationState = { ...(location.state as object | null), statusCode: status };
      void navigate({ pathname: location.pathname, search: location.search, hash: location.hash }, { replace: true, state });
    },
    [navigate, location],
  );
}

export const ErrorStatusContext = createContext<ErrorStatusChannel | null>(null);

/** Shows the error page the data layer asks for (see createApolloClient); rendered once inside the router. */
export function ErrorStatusListener() {
  const channel = useContext(ErrorStatusContext);
  const showErrorPage = useShowErrorPage();
  useEffect(() => channel?.subscribe(showErrorPage), [channel, showErrorPage]);
  return null;
}
