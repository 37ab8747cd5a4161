/** Payload filter engine: validate, compile, match, explain. Pure, no I/O. */
export {
  validatePayloadFilter,
  classifyFilterValue,
  appendKey,
  appendIndex,
  isOperatorKey,
  isJsonScalar,
  utf8Length,
  OPERATOR_KEYS,
  PAYLOAD_FILTER_LIMITS,
  type FilterIssue,
  type JsonScalar,
  type OperatorKey,
  type ValidateOptions,
  type ValueKind,
} from './validate';
export {
  compilePayloadFilter,
  PayloadFilterError,
  PathTable,
  type CompiledFilter,
  type CompileOptions,
  type MatchExplanation,
  type ResolvedPayload,
} from './compile';
