import { useEffect, useState, type ReactNode } from 'react';
import type { WebConfig } from '../../../core/web-config';
import { SplashScreen } from '../components/SplashScreen';
import { ServerErrorPage } from './errors/ServerErrorPage';

type StartUpState =
  | { readonly phase: 'loading' }
  | { readonly phase: 'ready'; readonly config: WebConfig }
  | { readonly phase: 'failed'; readonly reason: string };

interface StartUpProps {
  readonly loadConfig: () => Promise<WebConfig>;
  /** Starting again after a failure; the app reloads the page. */
  readonly onRetry: () => void;
  readonly children: (config: WebConfig) => ReactNode;
}

/** Reads the deployment's configuration once: the logo placeholder while it loads, the server error page if it fails. */
export function StartUp({ loadConfig, onRetry, children }: StartUpProps) {
  const [state, setState] = useState<StartUpState>({ phase: 'loading' });

  useEffect(() => {
    let current = true;
    loadConfig().then(
      (config) => current && setState({ phase: 'ready', config }),
      (error: unknown) =>
        current && setState({ phase: 'failed', reason: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [loadConfig]);

  switch (state.phase) {
    case 'loading':
      return <SplashScreen />;
    case 'failed':
      return <ServerErrorPage detail={state.reason} onRetry={onRetry} fullScreen />;
    case 'ready':
      return children(state.config);
  }
}
