import { Amplify } from 'aws-amplify';
import type { WebConfig } from '../../../../core/web-config';

/** The one warning Amplify gives whenever `userPoolEndpoint` is configured, whatever the endpoint. */
const CUSTOM_ENDPOINT_WARNING = 'custom Amazon Amazon Cognito User Pool endpoint';

/** Points Amplify Auth at the deployment's user pool (and, locally, at the stand-in's endpoint). */
export function configureAuth(config: WebConfig): void {
  // Amplify v6 has no way to name an endpoint without warning "ensure the endpoint is correct" on every
  // configure (every page load). The local runtime's endpoint is ours and correct by construction, so exactly
  // that warning is dropped while Amplify is configured; every other message goes through.
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!(typeof args[0] === 'string' && args[0].includes(CUSTOM_ENDPOINT_WARNING))) warn(...args);
  };
  try {
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
  } finally {
    console.warn = warn;
  }
}
