// BROOK_REDIS_URL, parsed into ioredis options. Two forms:
//
//   redis://[[user]:password@]host[:port][/db]          one Redis server (rediss:// for TLS)
//   redis+sentinel://[[user]:password@]host:port[,host:port...]/master-name[/db]
//                                                       Redis Sentinel: the sentinels' addresses and the name of
//                                                       the monitored master; the password is the master's (and
//                                                       also sent to the sentinels, which is what most
//                                                       deployments want)
//
// Port defaults: 6379 for Redis, 26379 for sentinels. Database defaults to 0.
import type { RedisOptions } from 'ioredis';

export const REDIS_PORT_DEFAULT = 6379;
export const SENTINEL_PORT_DEFAULT = 26379;

export class RedisUrlError extends Error {
  override readonly name = 'RedisUrlError';
}

export type ParsedRedisUrl =
  | { kind: 'standalone'; options: RedisOptions; display: string }
  | { kind: 'sentinel'; options: RedisOptions; display: string };

const URL_PATTERN = /^(redis|rediss|redis\+sentinel):\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/?#]+)(?:\/([^?#]*))?$/;

export function parseRedisUrl(url: string): ParsedRedisUrl {
  const match = URL_PATTERN.exec(url.trim());
  if (match === null) {
    throw new RedisUrlError(
      `${redact(url)} is not a Redis URL: expected redis://host:port[/db] or ` +
        'redis+sentinel://host:port[,host:port...]/master-name[/db]',
    );
  }
  const [, scheme, user, password, hostList, path = ''] = match;
  const credentials: RedisOptions = {};
  if (user) credentials.username = decodeURIComponent(user);
  if (password !== undefined && password !== '') credentials.password = decodeURIComponent(password);
  const segments = path.split('/').filter((segment) => segment !== '');
  if (scheme === 'redis+sentinel') {
    const [masterName, dbText] = segments;
    if (masterName === undefined) throw new RedisUrlError(`${redact(url)} names no master: add /master-name`);
    const sentinels = hostList.split(',').map((address) => parseHostPort(address, SENTINEL_PORT_DEFAULT, url));
    const options: RedisOptions = {
      ...credentials,
      sentinels,
      name: decodeURIComponent(masterName),
      db: parseDb(dbText, url),
    };
    if (credentials.password !== undefined) options.sentinelPassword = credentials.password;
    return { kind: 'sentinel', options, display: redact(url) };
  }
  if (hostList.includes(',')) throw new RedisUrlError(`${redact(url)}: several hosts need redis+sentinel://`);
  if (segments.length > 1) throw new RedisUrlError(`${redact(url)}: the path is only a database number`);
  const { host, port } = parseHostPort(hostList, REDIS_PORT_DEFAULT, url);
  const options: RedisOptions = { ...credentials, host, port, db: parseDb(segments[0], url) };
  if (scheme === 'rediss') options.tls = {};
  return { kind: 'standalone', options, display: redact(url) };
}

function parseHostPort(address: string, defaultPort: number, url: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(address);
  if (match === null) throw new RedisUrlError(`${redact(url)}: bad address '${address}'`);
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new RedisUrlError(`${redact(url)}: bad port in '${address}'`);
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}

function parseDb(text: string | undefined, url: string): number {
  if (text === undefined || text === '') return 0;
  const db = Number(text);
  if (!Number.isInteger(db) || db < 0 || db > 65535) throw new RedisUrlError(`${redact(url)}: bad database '${text}'`);
  return db;
}

/** The URL without its password, for messages and logs. */
export function redact(url: string): string {
  return url.replace(/(\/\/[^:@/]*:)[^@/]*@/, '$1***@');
}
