import { createServer as createNetServer, type AddressInfo } from 'node:net';
import type { IncomingMessage, Server } from 'node:http';

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

/**
 * Starts `server` on 127.0.0.1 at `preferred` when that port is free (a port remembered from an earlier start),
 * else on any free port; returns its base URL.
 */
export async function listenPreferring(server: Server, preferred: number): Promise<string> {
  if (preferred > 0) {
    try {
      return await listen(server, preferred);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' && (err as NodeJS.ErrnoException).code !== 'EACCES') throw err;
    }
  }
  return listen(server, 0);
}

/**
 * `preferred` when a server can listen on it on 127.0.0.1 now, else 0 (any free port): for stand-ins whose own
 * listen does not report a taken port as an error it can catch (s3rver's emits an unhandled 'error').
 */
export function portIfFree(preferred: number): Promise<number> {
  if (preferred <= 0) return Promise.resolve(0);
  return new Promise((resolve) => {
    const probe = createNetServer();
    probe.once('error', () => resolve(0));
    probe.listen(preferred, '127.0.0.1', () => probe.close(() => resolve(preferred)));
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

const LOOPBACK_ADDRESS = /^(127(\.\d{1,3}){3}|::1|::ffff:127(\.\d{1,3}){3})$/;
const LOOPBACK_NAME = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** True when `url` names this machine (`localhost`, 127.x.x.x, [::1]). */
function namesThisMachine(url: string): boolean {
  return URL.canParse(url) && LOOPBACK_NAME.test(new URL(url).hostname);
}

/**
 * A request from this machine that names this machine: its peer is a loopback address, and its Host (and its
 * Origin, when it sends one) a loopback name. A web page whose DNS name was rebound to 127.0.0.1 reaches a
 * loopback server from a loopback address, but its browser sends the page's own name.
 */
export function fromThisMachine(req: IncomingMessage): boolean {
  const { host, origin } = req.headers;
  return (
    LOOPBACK_ADDRESS.test(req.socket.remoteAddress ?? '') &&
    namesThisMachine(`http://${host ?? ''}`) &&
    (origin === undefined || namesThisMachine(origin))
  );
}
