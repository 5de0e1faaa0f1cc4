// Part of `npm run build`: compiles native/crc32c.c (CRC-32C on three SSE4.2 streams) into dist/native/crc32c.node
// with the system C compiler and the Node-API headers that come with Node. Where that cannot be done (no compiler,
// no headers, not x86-64 Linux) it says so in one line and Brook uses @node-rs/crc32 instead; the build still passes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'native', 'crc32c.c');
const output = join(root, 'dist', 'native', 'crc32c.node');
const include = join(dirname(dirname(process.execPath)), 'include', 'node');
const fallback = '@node-rs/crc32 (about 4x slower) is used instead';

// A failed build must not leave an older addon in place to be loaded.
rmSync(output, { force: true });

function skip(reason) {
  console.log(`note: native CRC-32C not built (${reason}); ${fallback}`);
  process.exit(0);
}

if (process.platform !== 'linux' || process.arch !== 'x64') skip(`${process.platform}/${process.arch}`);
if (!existsSync(join(include, 'node_api.h'))) skip(`no Node-API headers in ${include}`);
mkdirSync(dirname(output), { recursive: true });
// CC may carry arguments of its own ("ccache gcc")
const [compiler, ...compilerArgs] = (process.env.CC ?? 'cc').trim().split(/\s+/);
const args = [...compilerArgs, '-O3', '-msse4.2', '-pthread', '-shared', '-fPIC', '-Wall', '-Werror'];
const result = spawnSync(compiler, [...args, '-I', include, '-o', output, source], { encoding: 'utf8' });
if (result.error) skip(`${compiler}: ${result.error.message}`);
if (result.status !== 0) skip(`${compiler} failed: ${result.stderr.trim().split('\n')[0]}`);
