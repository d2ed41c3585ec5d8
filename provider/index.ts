// pulumi-alertpipe: Pulumi resources for alerts (alerting API), ingestion pipe settings and
// organization API keys (cloud management API).

export { Alert } from "./dynamic/alert";
export { ApiKey } from "./dynamic/apiKey";
export { PipeSettings } from "./dynamic/pipeSettings";
// The lookup functions and their types (GetAlertArgs, GetAlertResult, ...).
export * from "./dynamic/lookups";
export { SavedSearch } from "./dynamic/savedSearch";
export { Webhook } from "./dynamic/webhook";
export type {
  AlertArgs,
  AlertOutputs,
  AlertChannel,
  AlertChannelArgs,
  AlertChannelType,
  AlertInterval,
  AlertSilence,
  AlertSource,
  AlertThresholdType,
  ApiKeyArgs,
  ApiKeyOutputs,
  ApiKeyHashData,
  ApiKeyHashDataArgs,
  ApiKeyMaterial,
  ApiKeyRole,
  ApiKeyState,
  IpAccessEntry,
  IpAccessEntryArgs,
  PipeSettingsArgs,
  PipeSettingsOutputs,
  SavedSearchArgs,
  SavedSearchFilter,
  SavedSearchFilterArgs,
  SavedSearchFilterType,
  SavedSearchOutputs,
  SavedSearchWhereLanguage,
  WebhookArgs,
  WebhookOutputs,
  WebhookService,
} from "./dynamic/generated";
export { PIPE_SETTINGS, SETTING_NAMES, type SettingName } from "./serviceFacts/pipeSettings";
// The error kinds and codes. A program sees only the message, thrown in the host; these let in-process
// drivers and readers of the engine's output branch on codes the compiler knows.
export {
  AlertpipeError,
  HttpError,
  ApiError,
  RateLimitWaitError,
  TransportError,
  OutcomeUnknownError,
  AmbiguousCreateError,
  UnexpectedResponseError,
  ImportNotFoundError,
  UnusableKeyLeftError,
  AttemptTimeout,
  ConfigError,
  PartialFailure,
  ImportIdOnReplaceError,
  ImportIdFormError,
  IdFormError,
  UnknownResourceTypeError,
  LookupArgumentError,
  LookupNotFoundError,
  LookupAmbiguousError,
  UnknownFunctionError,
  StillReferencedError,
  UsageError,
  InternalError,
  ERROR_CODES,
  TRANSPORT_CODES_ADVICE,
  type AlertpipeErrorCode,
  type ApiErrorCode,
} from "./errors";
// The emulator is its own entry point, `pulumi-alertpipe/emulator`, so a program never loads it.
