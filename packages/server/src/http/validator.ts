/**
 * Request (and, when enabled, response) validation against openapi/v1.yaml with express-openapi-validator.
 *
 * Mounted under /api/v1 only: the document is reduced to the REST operations (paths that declare their own
 * `servers` — the ingress and the operational endpoints — are left out; the ingress is served outside the
 * REST stack). `validateResponses` is for tests: a response that breaks the contract becomes a 500.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import YAML from 'yaml';
import { repositoryRoot } from '../package-root';

export const specPath = path.join(repositoryRoot, 'openapi', 'v1.yaml');
export const REST_BASE_PATH = '/api/v1';

type SpecDocument = {
  servers?: unknown;
  paths?: Record<string, Record<string, unknown> & { servers?: unknown }>;
  [key: string]: unknown;
};

const parsedSpecs = new Map<string, SpecDocument>();

/**
 * The REST part of the contract with its base path set to /api/v1. Parsed once per process and file (the
 * document is 400 KB of YAML, about a second to parse): callers read it and never change it.
 */
export function loadRestSpec(file = specPath): SpecDocument {
  let spec = parsedSpecs.get(file);
  if (!spec) parsedSpecs.set(file, (spec = restPart(YAML.parse(fs.readFileSync(file, 'utf8')) as SpecDocument)));
  return spec;
}

function restPart(document: SpecDocument): SpecDocument {
  const paths: NonNullable<SpecDocument['paths']> = {};
  for (const [route, item] of Object.entries(document.paths ?? {})) {
    if (item.servers === undefined) paths[route] = item;
  }
  return { ...document, servers: [{ url: REST_BASE_PATH }], paths };
}

export interface ValidatorOptions {
  validateResponses: boolean;
  spec?: SpecDocument;
}

/**
 * The spec with `allowReserved` on every query parameter, for the validator only. RFC 3986 lets a query hold
 * `:`, `/`, `@`, `+`, … unencoded and the query parser decodes them (`+` as a space, as form encoding and
 * Python's httpx send it); without this the validator would refuse `?created_after=2026-05-01T09:00:00Z`.
 * Clients are still told to percent-encode (the contract does not set it).
 */
function acceptingRawReservedCharacters(spec: SpecDocument): SpecDocument {
  type Parameter = { in?: string; allowReserved?: boolean };
  const lenient = (parameter: Parameter) => (parameter.in === 'query' ? { ...parameter, allowReserved: true } : parameter);
  const components = spec.components as { parameters?: Record<string, Parameter> } | undefined;
  const paths = Object.fromEntries(
    Object.entries(spec.paths ?? {}).map(([route, item]) => [
      route,
      Object.fromEntries(
        Object.entries(item).map(([key, value]) => {
          if (key === 'parameters') return [key, (value as Parameter[]).map(lenient)];
          const operation = value as { parameters?: Parameter[] } | undefined;
          return [key, operation?.parameters ? { ...operation, parameters: operation.parameters.map(lenient) } : value];
        }),
      ),
    ]),
  );
  const parameters = Object.fromEntries(Object.entries(components?.parameters ?? {}).map(([name, p]) => [name, lenient(p)]));
  return { ...spec, paths, components: { ...components, parameters } };
}

const contractValidators = new Map<boolean, RequestHandler[]>();

/**
 * The validator of the contract, built once per process for each `validateResponses`: it holds no request
 * state, and building it (loading the document, then compiling each route's schemas on its first request)
 * costs more than starting the rest of a server, which tests do many times in one process.
 */
export function openApiValidator(options: ValidatorOptions): RequestHandler[] {
  if (options.spec) return validatorFor(options.spec, options.validateResponses);
  let validator = contractValidators.get(options.validateResponses);
  if (!validator) contractValidators.set(options.validateResponses, (validator = validatorFor(loadRestSpec(), options.validateResponses)));
  return validator;
}

function validatorFor(document: SpecDocument, validateResponses: boolean): RequestHandler[] {
  const spec = acceptingRawReservedCharacters(document);
  return OpenApiValidator.middleware({
    apiSpec: spec as never,
    validateApiSpec: false,
    // No coercion of bodies (a number is not a prompt); parameters are coerced by the validator anyway.
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, allErrors: true },
    validateResponses: validateResponses ? { allErrors: true } : false,
    // Authentication is ours (http/auth.ts), with our problem bodies.
    validateSecurity: false,
    // The contract has no multipart bodies: without this the validator adds a multer step (and a second Ajv
    // over the whole document) that every request passes through for nothing.
    fileUploader: false,
    ignoreUndocumented: false,
    ignorePaths: /^\/webhooks(\/|$)/,
    validateFormats: true,
    ajvFormats: { mode: 'full' },
  }) as unknown as RequestHandler[];
}
