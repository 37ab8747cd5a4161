export {
  createSandbox,
  SandboxUnavailableError,
  type RunSandbox,
  type Sandbox,
  type SandboxExit,
  type SandboxFailure,
  type SandboxStatus,
  type ImageRoot,
  type SandboxedProcess,
  type SpawnRequest,
} from './sandbox';
export type { HostOwner } from './workspace-disk';
