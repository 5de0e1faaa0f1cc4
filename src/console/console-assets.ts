// Brook Console's static assets as `npm run build` leaves them (vite's output in dist/console-ui/): index.html
// and the content-hashed files under assets/. They are read once at start-up into memory, so a request can only
// ever name a file of that set (no path from a URL reaches the filesystem). Cache headers: hashed assets never
// change under their name (a year, immutable); index.html is revalidated on every load so that a new build is
// picked up at once.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';

/** Bounds on what is loaded: a console build is a few dozen files and a few MiB. */
export const CONSOLE_ASSET_FILES_MAX = 500;
export const CONSOLE_ASSET_BYTES_MAX = 32 * 1024 * 1024;

export const INDEX_CACHE_CONTROL = 'no-cache';
export const HASHED_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
};

export interface ConsoleAsset {
  body: Buffer;
  contentType: string;
  cacheControl: string;
}

export interface ConsoleAssets {
  index: ConsoleAsset;
  /** By file name under assets/. */
  hashed: ReadonlyMap<string, ConsoleAsset>;
}

export function contentTypeOf(fileName: string): string {
  return CONTENT_TYPES[extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

/** The build in `dir`, or null when there is none (the broker then answers 503 saying how to build it). */
export function loadConsoleAssets(dir: string): ConsoleAssets | null {
  const indexPath = join(dir, 'index.html');
  if (!existsSync(indexPath)) return null;
  const index = {
    body: readFileSync(indexPath),
    contentType: contentTypeOf(indexPath),
    cacheControl: INDEX_CACHE_CONTROL,
  };
  const hashed = new Map<string, ConsoleAsset>();
  const assetsDir = join(dir, 'assets');
  let bytes = index.body.length;
  const names = existsSync(assetsDir) ? readdirSync(assetsDir) : [];
  if (names.length > CONSOLE_ASSET_FILES_MAX)
    throw new Error(`${assetsDir} holds ${names.length} files, more than ${CONSOLE_ASSET_FILES_MAX}`);
  for (const name of names) {
    const path = join(assetsDir, name);
    if (!statSync(path).isFile()) continue;
    const body = readFileSync(path);
    bytes += body.length;
    if (bytes > CONSOLE_ASSET_BYTES_MAX)
      throw new Error(`${dir} holds more than ${CONSOLE_ASSET_BYTES_MAX} bytes of console assets`);
    hashed.set(name, { body, contentType: contentTypeOf(name), cacheControl: HASHED_ASSET_CACHE_CONTROL });
  }
  return { index, hashed };
}
