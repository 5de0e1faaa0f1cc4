// Part of `npm run build`: compiles the Node-API addons in native/ into dist/native/<name>.node with the system C
// compiler and the Node-API headers that come with Node: crc32c.c (CRC-32C on three SSE4.2 streams, and the log
// append's write with the CRC check in the same thread-pool job, see src/partition-log/native-append.ts), and for
// the v2 binary produce scanner base64.c (its base64 decoder, AVX2) and v2-plain-records.c (its loop over records of
// the plain shape, AVX2), and record-walk.c (the record checks of a client's batch, see
// src/partition-log/record-batch-validation.ts), and memory-reducer.cc (C++: V8's young-generation collection, or a full one, and glibc's
// malloc_trim for an idle broker, see src/common/idle-memory-reducer.ts). Where one cannot be built (no compiler, no headers, not x86-64 Linux) it says so in one
// line and Brook uses the portable implementation instead; the build still passes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const include = join(dirname(dirname(process.execPath)), 'include', 'node');
// CC and CXX may carry arguments of their own ("ccache gcc")
const COMPILERS = {
  c: (process.env.CC ?? 'cc').trim().split(/\s+/),
  cc: (process.env.CXX ?? 'c++').trim().split(/\s+/),
};

/** Each addon: its source, the compiler flags it needs, and what Brook uses without it. */
const ADDONS = [
  {
    name: 'crc32c',
    title: 'CRC-32C',
    flags: ['-msse4.2', '-pthread'],
    fallback: '@node-rs/crc32 (about 4x slower; appends check CRCs on the JavaScript thread)',
  },
  // the AVX2 function carries its own target attribute, so the module loads (and refuses) on any x86-64
  { name: 'base64', title: 'base64 decoder', flags: ['-pthread'], fallback: 'the JavaScript decoder' },
  {
    name: 'v2-plain-records',
    title: 'v2 plain-record framing',
    flags: ['-pthread'],
    fallback: 'the JavaScript scanner',
  },
  { name: 'record-walk', title: 'record walk', flags: [], fallback: 'the JavaScript record walk' },
  {
    name: 'memory-reducer',
    language: 'cc',
    title: 'idle memory reducer',
    flags: ['-std=c++17'],
    fallback: 'an idle broker keeps the memory V8 and glibc hold',
  },
];

/** Builds one addon; null when done, else why not. */
function build({ name, flags, language = 'c' }) {
  const source = join(root, 'native', `${name}.${language}`);
  const [compiler, ...compilerArgs] = COMPILERS[language];
  const output = join(root, 'dist', 'native', `${name}.node`);
  // A failed build must not leave an older addon in place to be loaded.
  rmSync(output, { force: true });
  if (process.platform !== 'linux' || process.arch !== 'x64') return `${process.platform}/${process.arch}`;
  if (!existsSync(join(include, 'node_api.h'))) return `no Node-API headers in ${include}`;
  mkdirSync(dirname(output), { recursive: true });
  const args = [...compilerArgs, '-O3', ...flags, '-shared', '-fPIC', '-Wall', '-Werror'];
  const result = spawnSync(compiler, [...args, '-I', include, '-o', output, source], { encoding: 'utf8' });
  if (result.error) return `${compiler}: ${result.error.message}`;
  if (result.status !== 0) return `${compiler} failed: ${result.stderr.trim().split('\n')[0]}`;
  return null;
}

for (const addon of ADDONS) {
  const reason = build(addon);
  if (reason !== null)
    console.log(`note: native ${addon.title} not built (${reason}); ${addon.fallback} is used instead`);
}
