/**
 * The layers of src/, checked on every `npm test`: http → domain ← ingest, storage reached through
 * its ports, the domain pure. app.ts, server.ts, cluster.ts, config.ts and cli/ put the layers
 * together and may import any of them.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle makes two modules one: neither can be read, tested or changed alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'The domain imports only the domain (and Node built-ins): no framework, driver or other layer.',
      from: { path: '^src/domain/' },
      to: { pathNot: '^src/domain/', dependencyTypesNot: ['core'] },
    },
    {
      name: 'http-reaches-storage-through-ports',
      severity: 'error',
      comment: 'The HTTP layer sees storage only as the ports, never an adapter.',
      from: { path: '^src/(http|live|metrics)/' },
      to: { path: '^src/storage/', pathNot: '^src/storage/ports\\.ts$' },
    },
    {
      name: 'ingest-reaches-storage-through-ports',
      severity: 'error',
      comment: 'Ingestion writes through the rates port, never an adapter.',
      from: { path: '^src/ingest/' },
      to: { path: '^src/storage/', pathNot: '^src/storage/ports\\.ts$' },
    },
    {
      name: 'below-http-never-imports-http',
      severity: 'error',
      comment: 'Storage adapters, ingestion, the live view and metrics know nothing of HTTP.',
      from: { path: '^src/(storage|ingest|live|metrics|domain)/' },
      to: { path: '^src/http/' },
    },
    {
      name: 'layers-never-import-the-composition',
      severity: 'error',
      comment: 'Only the entry points put the layers together; no layer imports them.',
      from: { path: '^src/(domain|http|ingest|live|metrics|storage)/' },
      to: { path: '^src/(app|server|cluster|config)\\.ts$|^src/cli/' },
    },
    {
      name: 'no-dev-dependencies-in-src',
      severity: 'error',
      comment: 'What ships must not need a dev dependency.',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
