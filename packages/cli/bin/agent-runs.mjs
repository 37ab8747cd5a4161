#!/usr/bin/env node
// The installed `agent-runs` command. The CLI and the SDK it imports ship as TypeScript source (see
// packages/sdk/package.json `exports`), so this runs src/main.ts through tsx's loader in this process
// instead of requiring a build step before the command works.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
