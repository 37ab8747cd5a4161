#!/usr/bin/env node
// Runs before `tsup` on pack/publish. package.json's own entry is src/index.ts so the workspace (CLI via
// tsx, vitest, tsc) uses the source without a build; only pnpm swaps in the dist entry from
// `publishConfig` when packing. npm pack/publish ignores `publishConfig` and would ship a tarball whose
// entry is the unshipped src/, so refuse it here rather than publish a package that cannot be imported.
const agent = process.env.npm_config_user_agent ?? '';
if (!agent.startsWith('pnpm/')) {
  console.error(
    `@agent-runs/sdk: pack with pnpm (\`pnpm pack\` in packages/sdk), not ${agent.split(' ')[0] || 'this tool'}:\n` +
      'only pnpm applies publishConfig, which points the packed package at the built dist/.',
  );
  process.exit(1);
}
