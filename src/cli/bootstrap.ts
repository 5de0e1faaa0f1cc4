// `--bootstrap-server`: Kafka's tools take `host:port[,host:port...]`; Brook's brokers speak HTTP, so a value
// may also be a URL. Without a scheme, `http://` is assumed (Kafka users paste `localhost:9092`-style values).
import { UsageError } from './errors.js';

export const DEFAULT_BOOTSTRAP_SERVER = 'http://localhost:8082';
export const BOOTSTRAP_SERVER_ENV = 'BROOK_URL';

/** Normalises one `--bootstrap-server` entry to a base URL without a trailing slash. */
export function normalizeBootstrapServer(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new UsageError('--bootstrap-server is empty');
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(`--bootstrap-server '${value}' is neither host:port nor an http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--bootstrap-server '${value}': only http and https are supported`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new UsageError(`--bootstrap-server '${value}' must not have a query or fragment`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** A comma-separated list of servers, each normalised; the CLI tries them in order until one answers. */
export function parseBootstrapServers(value: string): string[] {
  const servers = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (servers.length === 0) throw new UsageError('--bootstrap-server is empty');
  return servers.map(normalizeBootstrapServer);
}
