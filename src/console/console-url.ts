// The console's page is the route GET /console; the address people type and share is /console/ (the and
// the README's). Nest maps no route with a trailing slash, so the broker's URL rewrite (main.ts) turns the page
// address with a slash into the route, keeping its query; every other URL passes unchanged.
export const CONSOLE_PATH = '/console';

export function rewriteConsoleUrl(url: string): string {
  if (url === `${CONSOLE_PATH}/` || url.startsWith(`${CONSOLE_PATH}/?`))
    return CONSOLE_PATH + url.slice(CONSOLE_PATH.length + 1);
  return url;
}
