// The Cognito stand-in's HTTP front, before cognito-local's own app:
// - the pool's JWKS lists the state folder's signing key (cognito-local would list the key inside its package);
// - the hosted UI's routes are closed: the app signs in through the API, and cognito-local's login form
//   compares a password with the stored value as it is, which is now a hash;
// - a call Cognito accepts only with AWS credentials (Admin*, pool and client management) is refused from a
//   browser: cognito-local checks no credentials and allows every origin, so any web page open on this
//   machine could otherwise set the administrator's password. The platform's own callers (Lambda functions,
//   the runtime) use the AWS SDK, which sends no Origin header; browsers send one with every such request.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { SigningKey } from './cognito-flows/keys';

/** The calls Cognito answers without AWS credentials (unauthenticated, or authorized by the user's access token). */
const BROWSER_CALLS = new Set([
  'InitiateAuth',
  'RespondToAuthChallenge',
  'GetTokensFromRefreshToken',
  'RevokeToken',
  'SignUp',
  'ConfirmSignUp',
  'ResendConfirmationCode',
  'ForgotPassword',
  'ConfirmForgotPassword',
  'GetUser',
  'ChangePassword',
  'GlobalSignOut',
  'DeleteUser',
  'UpdateUserAttributes',
  'DeleteUserAttributes',
  'GetUserAttributeVerificationCode',
  'VerifyUserAttribute',
  'AssociateSoftwareToken',
  'VerifySoftwareToken',
  'SetUserMFAPreference',
  'SetUserSettings',
  'ConfirmDevice',
  'ForgetDevice',
  'GetDevice',
  'ListDevices',
  'UpdateDeviceStatus',
]);

const JWKS_PATH = /^\/[\w-]+\/\.well-known\/jwks\.json$/;

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export function cognitoFront(app: RequestListener, key: SigningKey): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && JWKS_PATH.test(path)) return answer(res, 200, { keys: [key.jwk] });
    if (path.startsWith('/oauth2/')) {
      return answer(res, 404, { message: 'The local user pool has no hosted UI: sign in through the app.' });
    }
    const call = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    if (req.method === 'POST' && req.headers.origin !== undefined && call && !BROWSER_CALLS.has(call)) {
      return answer(res, 403, {
        __type: 'MissingAuthenticationTokenException',
        message: `${call} needs AWS credentials: a browser cannot call it.`,
      });
    }
    app(req, res);
  };
}
