import { createContext, useContext } from 'react';
import { isWebConfig, type WebConfig } from '../../../core/web-config';

export const WEB_CONFIG_PATH = '/config.json';

/** Start-up could not read a usable `config.json`; the message says why, for the server error page. */
export class WebConfigError extends Error {
  override readonly name = 'WebConfigError';
}

/** Reads `config.json` from the origin that served the app. */
export async function loadWebConfig(fetchConfig: typeof fetch = fetch): Promise<WebConfig> {
  let response: Response;
  try {
    response = await fetchConfig(WEB_CONFIG_PATH, { cache: 'no-store', headers: { Accept: 'application/json' } });
  } catch {
    throw new WebConfigError(`The server could not be reached to read ${WEB_CONFIG_PATH}.`);
  }
  if (!response.ok) {
    throw new WebConfigError(`The server answered ${response.status} for ${WEB_CONFIG_PATH}.`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new WebConfigError(`${WEB_CONFIG_PATH} is not valid JSON.`);
  }
  if (!isWebConfig(body)) {
    throw new WebConfigError(`${WEB_CONFIG_PATH} is missing required settings.`);
  }
  return body;
}

const WebConfigContext = createContext<WebConfig | null>(null);

export const WebConfigProvider = WebConfigContext.Provider;

/** The deployment's `config.json`, available to every screen once start-up has read it. */
export function useWebConfig(): WebConfig {
  const config = useContext(WebConfigContext);
  if (!config) throw new Error('useWebConfig is used outside of <WebConfigProvider>.');
  return config;
}
