import type { components } from '@agent-runs/contract';

type Schemas = components['schemas'];

/** What a run published (in `RunItem.artifacts`), by `artifact_type`. */
export type ArtifactItem = Schemas['ArtifactItem'];
export type ArtifactType = Schemas['RunArtifactType'];
export type PlanArtifact = Schemas['PlanArtifact'];
export type PullRequestArtifact = Schemas['PullRequestArtifact'];
export type ScreenshotArtifact = Schemas['ScreenshotArtifact'];
export type FileArtifact = Schemas['FileArtifact'];
export type ExternalReferenceArtifact = Schemas['ExternalReferenceArtifact'];
/** `agent.getArtifact`'s answer: a signed download URL (FILE, SCREENSHOT) or the plan inline (PLAN). */
export type ArtifactResponse = Schemas['ArtifactResponse'];
/** Oz's name for the same type. */
export type AgentGetArtifactResponse = ArtifactResponse;
export type RunByExternalReferenceResponse = Schemas['RunByExternalReferenceResponse'];
