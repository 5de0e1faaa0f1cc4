// The layers of Brook's code (README, "How the code is laid out"), checked by `npm run lint:deps`. Imports point
// downwards only: edges -> application -> core -> leaves; the composition root may import every layer; tools may
// import the core and the leaves. Edges never import each other, and nothing imports in a cycle.
const LEAVES = '^src/(common|config|metrics)/';
const CORE = '^src/(replication|group-coordinator|controller-election|topic|partition-log|coordination|cluster)/';
const APPLICATION = '^src/(application|security)/';
/** Today's edges and the coming ones (the Kafka listener, the schema registry, the web console). */
const EDGES = '^src/(http|ws|sse|internal|kafka|schema-registry|console)/';
const ROOT = '^src/(main|broker-main|app\\.module|broker-lifecycle\\.service)\\.ts$';
const TOOLS = '^src/(cli|bench|local-cluster)/';
const SPEC = '\\.spec\\.ts$';
/** The tests' and the local cluster's way to run a real redis-server. */
const REDIS_SERVER_PROCESS = '^src/local-cluster/redis-server-process\\.ts$';
const KNOWN = [LEAVES, CORE, APPLICATION, EDGES, ROOT, TOOLS].join('|');

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'Modules import each other in a cycle: move what both need into a module below them.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'leaf-imports-upward',
      comment: 'common, config and metrics are leaves: they import nothing of the broker above them.',
      severity: 'error',
      from: { path: LEAVES },
      to: { path: [CORE, APPLICATION, EDGES, ROOT, TOOLS] },
    },
    {
      name: 'core-imports-upward',
      comment: 'The core imports only the core and the leaves.',
      severity: 'error',
      from: { path: CORE },
      to: { path: [APPLICATION, EDGES, ROOT, TOOLS], pathNot: REDIS_SERVER_PROCESS },
    },
    {
      name: 'core-imports-redis-server-process',
      comment: "Only the core's specs start a redis-server, through the local cluster's process helper.",
      severity: 'error',
      from: { path: CORE, pathNot: SPEC },
      to: { path: REDIS_SERVER_PROCESS },
    },
    {
      name: 'application-imports-upward',
      comment: 'The application layer imports only itself, the core and the leaves.',
      severity: 'error',
      from: { path: APPLICATION },
      to: { path: [EDGES, ROOT, TOOLS] },
    },
    {
      name: 'edge-imports-edge',
      comment: 'A protocol edge never imports another edge: what both need belongs to the application layer.',
      severity: 'error',
      from: { path: EDGES },
      to: { path: EDGES, pathNot: '^src/$1/' },
    },
    {
      name: 'edge-imports-root-or-tool',
      comment: 'Edges import the application, the core and the leaves, never the composition root or a tool.',
      severity: 'error',
      from: { path: EDGES },
      to: { path: [ROOT, TOOLS] },
    },
    {
      name: 'tool-imports-broker-upper-layers',
      comment: 'Tools (cli, bench, local-cluster) never import the edges, the application or the composition root.',
      severity: 'error',
      from: { path: TOOLS },
      to: { path: [APPLICATION, EDGES, ROOT] },
    },
    {
      name: 'folder-outside-layers',
      comment: 'Every folder of src/ belongs to a layer: add a new one to .dependency-cruiser.mjs and the README.',
      severity: 'error',
      from: { path: '^src/', pathNot: KNOWN },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/cli/generated/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
