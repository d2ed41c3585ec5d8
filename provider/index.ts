// pulumi-alertpipe: Pulumi resources for alerts (alerting API), ingestion pipe settings and
// organization API keys (cloud management API).

export { Alert, type AlertArgs, type AlertChannel, type AlertChannelArgs, type AlertSource, type AlertThresholdType } from "./alert/resource";
export { ApiKey, type ApiKeyArgs, type ApiKeyHashData, type ApiKeyRole, type ApiKeyState, type IpAccessEntry } from "./apiKey/resource";
export { PipeSettings, type PipeSettingsArgs } from "./pipeSettings/resource";
export { PIPE_SETTINGS, SETTING_NAMES, type SettingName } from "./pipeSettings/settings";
export { CONNECTION_SETTINGS, ConfigError } from "./connection";
export { ApiError, OutcomeUnknownError, TransportError, UnexpectedResponseError } from "./http/errors";
// The emulator is its own entry point, `pulumi-alertpipe/emulator`, so a program that imports the
// resources never loads it.
