import { Amplify } from 'aws-amplify';
import type { WebConfig } from '../../../../core/web-config';

/** Points Amplify Auth at the deployment's user pool (and, locally, at the stand-in's endpoint). */
export function configureAuth(config: WebConfig): void {
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        ...(config.userPoolEndpoint ? { userPoolEndpoint: config.userPoolEndpoint } : {}),
        loginWith: { email: true },
      },
    },
  });
}
