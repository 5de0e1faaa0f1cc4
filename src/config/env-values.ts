// Reading typed settings from environment variables: each reader names the variable in its error, so a bad value
// stops the broker with a message saying which setting is wrong and what it expects.

export class ConfigError extends Error {}

export type Env = Readonly<Record<string, string | undefined>>;

export function integer(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw.trim());
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name}=${raw} is invalid: expected an integer from ${min} to ${max}`);
  }
  return value;
}

export function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const normalized = raw.trim().toLowerCase();
  if (normalized === 'true') return true;
  if (normalized === 'false') return false;
  throw new ConfigError(`${name}=${raw} is invalid: expected true or false`);
}

export function choice<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!allowed.includes(raw as T))
    throw new ConfigError(`${name}=${raw} is invalid: expected one of ${allowed.join(', ')}`);
  return raw as T;
}

export function url(env: Env, name: string): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  try {
    return new URL(raw).toString();
  } catch {
    throw new ConfigError(`${name}=${raw} is invalid: expected a URL`);
  }
}
