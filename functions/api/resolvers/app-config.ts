import { getAppConfig } from '../../lib/app-config';
import type { ResultOf } from './types';

/** The deployment as the web app needs to know it, before sign-in screens and settings. */
export const appConfig = (): Promise<ResultOf<'Query.appConfig'>> => getAppConfig();
