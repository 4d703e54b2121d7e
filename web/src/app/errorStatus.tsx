import { useApolloClient } from '@apollo/client/react';
import { createContext, useCallback, useContext, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { ErrorStatus } from '../lib/apollo/apiErrors';
import type { ErrorStatusChannel } from '../lib/apollo/errorStatusChannel';

// The error page to show is kept in the location state as `statusCode`, so it replaces the page at the same
// address and lasts until the path changes, or until the user tries again. The history keeps a location's state
// across a reload, so the state also names the page load that showed the error: a reload loads the page again.

export interface ErrorLocationState {
  readonly statusCode?: ErrorStatus;
  /** The page load whose call failed (`performance.timeOrigin`, which every load of the document sets anew). */
  readonly statusLoad?: number;
}

/** The status code kept in a location state, if it holds one and this page load put it there. */
export function statusCodeOf(state: unknown): ErrorStatus | undefined {
  const { statusCode: code, statusLoad } = (state as ErrorLocationState | null) ?? {};
  if (statusLoad !== performance.timeOrigin) return undefined;
  return code === 'unknown' || (typeof code === 'number' && Number.isInteger(code)) ? code : undefined;
}

/** A location state without the error page it held. */
function withoutStatus(state: unknown): object | null {
  if (typeof state !== 'object' || state === null) return null;
  const { statusCode: _statusCode, statusLoad: _statusLoad, ...rest } = state as ErrorLocationState;
  return rest;
}

/** Shows the error page of a status in place of the current page, keeping its address. */
export function useShowErrorPage(): (status: ErrorStatus) => void {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    (status: ErrorStatus) => {
      const state: ErrorLocationState = {
        ...withoutStatus(location.state),
        statusCode: status,
        statusLoad: performance.timeOrigin,
      };
      void navigate({ pathname: location.pathname, search: location.search, hash: location.hash }, { replace: true, state });
    },
    [navigate, location],
  );
}

/**
 * "Try again" on an error page: the page at the same address comes back and asks for its data again, and the
 * calls of what stayed on screen (the shell's) are made again; a call failing again shows its error page again.
 */
export function useRetryAfterError(): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  const client = useApolloClient();
  return useCallback(() => {
    client.refetchQueries({ include: 'active' }).catch(() => undefined); // a failure shows its page through the data layer
    void navigate(
      { pathname: location.pathname, search: location.search, hash: location.hash },
      { replace: true, state: withoutStatus(location.state) },
    );
  }, [client, navigate, location]);
}

export const ErrorStatusContext = createContext<ErrorStatusChannel | null>(null);

/** Shows the error page the data layer asks for (see createApolloClient); rendered once inside the router. */
export function ErrorStatusListener() {
  const channel = useContext(ErrorStatusContext);
  const showErrorPage = useShowErrorPage();
  useEffect(() => channel?.subscribe(showErrorPage), [channel, showErrorPage]);
  return null;
}
