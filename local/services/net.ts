import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

/** Starts `server` on 127.0.0.1 (port 0 picks a free one) and returns its base URL. */
export function listen(server: Server, port = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
  });
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections?.();
  });
}

/** The stand-ins' one credential (s3rver checks the key id; the others accept any). */
export const LOCAL_ACCESS_KEY = 'S3RVER';

/** SDK client settings for a stand-in: fixed test credentials, the stand-in's endpoint. */
export function localClientConfig(endpoint: string, region: string) {
  return {
    endpoint,
    region,
    credentials: { accessKeyId: LOCAL_ACCESS_KEY, secretAccessKey: LOCAL_ACCESS_KEY },
    forcePathStyle: true,
  };
}
