// The endpoint of an HTTP source: `<HTTP ingest base URL>/<source id>`. The base URL comes from the
// deployment (HTTP_INGEST_URL); without it the endpoint is pending (null).
import { ENV, optionalEnv } from '../env';

export function httpIngestBaseUrl(): string | null {
  const base = optionalEnv(ENV.httpIngestUrl)?.trim();
  return base ? base.replace(/\/+$/, '') : null;
}

export function httpEndpointUrl(sourceId: string): string | null {
  const base = httpIngestBaseUrl();
  return base ? `${base}/${sourceId}` : null;
}
