// The demo log sources, created once through the log sources area with the rules every source's save applies:
// "Demo S3" reads the `demo/` prefix of the ingest bucket (AWS.CloudTrail), "Demo HTTP" takes Okta System Log
// and GitHub audit events signed with HMAC. Its key is kept in the source as every HMAC source's is, and the
// demo signs with it from there; the demo keeps no secret of its own. Their checks are left to the scheduled
// health run.
import { randomBytes } from 'node:crypto';
import { ENV, requireEnv } from '../env';
import {
  createHttpLogSource,
  createS3LogSource,
  getSource,
  newSourceId,
  updateHttpLogSource,
  type Actor,
  type HttpSourceSave,
  type S3SourceSave,
} from '../log-sources';
import { claimDemoSources, demoState, forgetHttpToken, type DemoState } from './state';

export const DEMO_PREFIX = 'demo/';
export const S3_LOG_TYPES = ['AWS.CloudTrail'];
export const HTTP_LOG_TYPES = ['Okta.SystemLog', 'GitHub.Audit'];
const ACTOR: Actor = { email: '', username: 'demo' };
const SIGNATURE_HEADER = 'X-Caracal-Signature';

/** The demo HTTP source's authentication: HMAC-SHA256 with a new random key. */
const signedHttp = (): Pick<HttpSourceSave, 'authType' | 'hmacAlgorithm' | 'signatureHeader' | 'secret'> => ({
  authType: 'HMAC',
  hmacAlgorithm: 'sha256',
  signatureHeader: SIGNATURE_HEADER,
  secret: randomBytes(32).toString('hex'),
});

/**
 * The demo sources, created when the state item does not name existing ones. A demo HTTP source of an
 * earlier version (a Bearer token, kept in clear in the state item) is switched to HMAC and the token dropped.
 */
export async function ensureDemoSources(): Promise<DemoState> {
  const state = await demoState();
  const http = state && (await getSource(state.httpSourceId));
  if (state && http && (await getSource(state.s3SourceId))) {
    if (http.transport === 'http-ingest' && http.http.authType !== 'HMAC') {
      const input = { label: http.label, logTypes: http.logTypes, enabled: http.enabled, ...signedHttp() };
      await updateHttpLogSource(http.id, input, ACTOR, { checkNow: false });
      await forgetHttpToken();
    }
    return state;
  }
  const next: DemoState = { s3SourceId: newSourceId(), httpSourceId: newSourceId() };
  await claimDemoSources(next, state);
  const s3: S3SourceSave = {
    label: 'Demo S3',
    bucket: requireEnv(ENV.ingestBucket),
    prefixes: [{ prefix: DEMO_PREFIX, excludedPrefixes: [], logTypes: S3_LOG_TYPES }],
    streamType: 'Auto',
  };
  await createS3LogSource(s3, ACTOR, { id: next.s3SourceId, checkNow: false });
  const httpInput: HttpSourceSave = { label: 'Demo HTTP', logTypes: HTTP_LOG_TYPES, streamType: 'Auto', ...signedHttp() };
  await createHttpLogSource(httpInput, ACTOR, { id: next.httpSourceId, checkNow: false });
  return next;
}
