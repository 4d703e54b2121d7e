import { getAppConfig, type AppConfig } from '../../lib/app-config';

/** The deployment as the web app needs to know it, before sign-in screens and settings. */
export const appConfig = (): Promise<AppConfig> => getAppConfig();
