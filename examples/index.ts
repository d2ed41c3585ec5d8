// One pipe's tuning, the API key a deployment job uses, and an alert on ingest lag.
// Connection settings come from the stack config (alertpipe:*) or ALERTPIPE_* environment variables.
//
// The program is a function returning the stack outputs: `pulumi up` in this folder runs it, and the
// demo and tests load the same function as an Automation API inline program.

import * as pulumi from "@pulumi/pulumi";
import { Alert, ApiKey, PipeSettings } from "pulumi-alertpipe";

export = async () => {
  // Stack config of this project (alertpipe-example:*); the defaults suit the bundled emulator.
  const config = new pulumi.Config();
  const organizationId = config.get("organizationId") || "0f8fad5b-d9cb-469f-a165-70867728950e";
  const serviceId = config.get("serviceId") || "7c9e6679-7425-40de-944b-e07fc1f90ae7";
  const pipeId = config.get("pipeId") || "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed";
  const dbMaxThreads = config.getNumber("dbMaxThreads") ?? 8;

  const ingest = new PipeSettings("ingest", {
    organizationId,
    serviceId,
    pipeId,
    streamingMaxInsertWaitMs: 1000,
    objectStorageConcurrency: 4,
    dbMaxThreads,
    dbParallelViewProcessing: true,
    // This example owns the pipe's tuning, so destroying it puts the settings back to unset.
    resetOnDelete: true,
  });

  const deployer = new ApiKey("deployer", {
    organizationId,
    name: "deployer",
    roles: ["developer"],
    state: "enabled",
    ipAccessList: [{ source: "127.0.0.1/32", description: "this machine" }],
  });

  const ingestLag = new Alert("ingest-lag", {
    name: "Ingest lag",
    // Built from other resources' outputs: unknown until they exist, as in any first preview.
    message: pulumi.interpolate`Ingest lag on pipe ${ingest.pipeId} (deploy key ending ${deployer.keySuffix})`,
    source: "search",
    threshold: 300,
    thresholdType: "above",
    interval: "5m",
    channel: { type: "webhook", webhookId: "ops-oncall" },
  });

  return {
    pipeDbMaxThreads: ingest.dbMaxThreads,
    managedSettings: ingest.managedSettings,
    deployerKeyId: deployer.keyId,
    deployerKeySecret: deployer.keySecret,
    alertId: ingestLag.id,
    alertState: ingestLag.state,
  };
};
