// Loads a function from one of Brook's Node-API addons (native/<name>.c, built by `npm run build` into
// dist/native/<name>.node; see scripts/build-native.mjs). Null when the addon was not built here, refuses to load
// on this CPU, or its switch (an environment variable) is set to `false`: the caller then uses its portable code.
import { createRequire } from 'node:module';

/** dist/native as seen from this module, in dist/common (the broker) or in src/common (the tests). */
const ADDON_DIRS = ['../native/', '../../dist/native/'];

export function loadAddonFunction<F>(addon: string, exportName: string, switchVariable: string): F | null {
  if (process.env[switchVariable] === 'false') return null;
  const require = createRequire(import.meta.url);
  for (const dir of ADDON_DIRS) {
    try {
      const loaded = require(`${dir}${addon}.node`) as Record<string, unknown>;
      if (typeof loaded[exportName] === 'function') return loaded[exportName] as F;
    } catch {
      // not built here, or the CPU lacks what it needs: try the next place, then fall back
    }
  }
  return null;
}
