import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { BrowserRouter } from 'react-router-dom';
import type { WebConfig } from '../../../core/web-config';
import { AmplifyAuthProvider } from '../lib/auth/AmplifyAuthProvider';
import { configureAuth } from '../lib/auth/configureAuth';
import { ApiProvider } from './ApiProvider';
import { ConnectivityModal } from './ConnectivityModal';
import { AppRoutes } from './AppRoutes';
import { SNACKBAR_DEFAULT_MS, SNACKBAR_POSITION, SNACKBAR_Z_INDEX } from './constants';
import { StartUp } from './StartUp';
import { theme } from './theme';
import { loadWebConfig, WebConfigProvider } from './webConfig';

function startWith(config: WebConfig) {
  return (
    <WebConfigProvider value={config}>
      <AmplifyAuthProvider authFlowType={config.authFlowType}>
        <ApiProvider graphqlUrl={config.graphqlUrl}>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </ApiProvider>
      </AmplifyAuthProvider>
    </WebConfigProvider>
  );
}

async function loadConfig(): Promise<WebConfig> {
  const config = await loadWebConfig();
  configureAuth(config);
  return config;
}

const reload = () => window.location.reload();

/** The whole app: theme and snackbars, then start-up reads config.json and everything else follows from it. */
export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="dark">
      <Notifications position={SNACKBAR_POSITION} autoClose={SNACKBAR_DEFAULT_MS} zIndex={SNACKBAR_Z_INDEX} />
      <ConnectivityModal />
      <StartUp loadConfig={loadConfig} onRetry={reload}>
        {startWith}
      </StartUp>
    </MantineProvider>
  );
}
