// pulumi-alertpipe: Pulumi resources for alerts (alerting API), ingestion pipe settings and
// organization API keys (cloud management API).

export {
  Alert,
  type AlertArgs,
  type AlertChannel,
  type AlertChannelArgs,
  type AlertInterval,
  type AlertSilence,
  type AlertSource,
  type AlertThresholdType,
} from "./dynamic/alert";
export { ApiKey, type ApiKeyArgs, type ApiKeyHashData, type ApiKeyRole, type ApiKeyState, type IpAccessEntry } from "./dynamic/apiKey";
export { PipeSettings, type PipeSettingsArgs } from "./dynamic/pipeSettings";
export { PIPE_SETTINGS, SETTING_NAMES, type SettingName } from "./serviceFacts/pipeSettings";
// Not exported: the error classes (provider/errors.ts, ConfigError) and the connection
// settings' table. Errors are thrown in Pulumi's provider host, not in the program, which sees only
// their messages, so no program can catch them; connection settings are read there too, from the
// stack config the README lists. Neither is a promise to keep.
// The emulator is its own entry point, `pulumi-alertpipe/emulator`, so a program that imports the
// resources never loads it.
