import type { ErrorStatus } from './apiErrors';

type Listener = (status: ErrorStatus) => void;

/**
 * Carries the data layer's error statuses to whoever shows the pages: the GraphQL client lives above the
 * router, the page that shows the error inside it.
 */
export interface ErrorStatusChannel {
  publish(status: ErrorStatus): void;
  /** Listens until the returned function is called. */
  subscribe(listener: Listener): () => void;
}

export function createErrorStatusChannel(): ErrorStatusChannel {
  const listeners = new Set<Listener>();
  return {
    publish: (status) => listeners.forEach((listener) => listener(status)),
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
