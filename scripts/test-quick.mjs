#!/usr/bin/env node
// `pnpm test:quick`: the inner loop (docs/decisions.md §A faster, steadier test suite). The server's, the
// SDK's and the CLI's tests on SQLite only (TEST_POSTGRES_URL ignored), without those that start
// sandboxes, images, third-party harnesses, compiled or tsx child processes, git forges, a browser, the packed
// SDK, the CLI's end-to-end runs or generated hostile input:
// those, PostgreSQL, the dashboard's browser tests, the cross-package e2e suite and Python run in
// `pnpm test`. Extra arguments go to vitest (a file or a folder to narrow it further).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SLOW = [
  'test/sandbox/**', // bubblewrap sandboxes
  'test/images/**', // registry, skopeo and umoci
  'test/harnesses/**', // third-party agent CLIs in sandboxes
  'test/gateway/**', // the model gateway inside sandboxed runs
  'test/repositories/**', // git over HTTP into sandboxes
  'test/build/**', // the compiled server
  'test/bench/**', // paced load, seconds of real time per case
  'test/admin/startup.test.ts', // the server as a tsx child process
  'test/admin/admin-commands.test.ts', // the admin commands as tsx child processes
  'test/notifications/durability.test.ts', // servers killed and restarted as child processes
  'test/agent/fix-cloned-repository.test.ts',
  'test/agent/workspace-tools.test.ts',
  'test/http/storage-full.test.ts', // mounts a full disk
  'test/bin.test.ts', // the CLI as a child process
  'test/real-server.test.ts', // the CLI's runs waited for on the real server, end to end
  'test/package/**', // the SDK packed, installed and type-checked by a consumer
  'test/ingress/hostile-input.test.ts', // thousands of generated hostile requests
];
const env = { ...process.env };
delete env.TEST_POSTGRES_URL;
const args = ['run', '--project', 'server', '--project', 'sdk', '--project', 'cli', ...SLOW.flatMap((glob) => ['--exclude', glob]), ...process.argv.slice(2)];
const result = spawnSync(path.join(root, 'node_modules/.bin/vitest'), args, { cwd: root, stdio: 'inherit', env });
process.exit(result.status ?? 1);
